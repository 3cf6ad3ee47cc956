package agentcli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolmcp"
)

// envMCPToken holds the bearer token of agent mcp -http.
const envMCPToken = "TOOLREG_MCP_TOKEN"

// The environment of agent mcp -http as an OAuth 2.1 resource server: the
// authorization server's issuer URL, this server's own URL (the audience
// of its tokens), and optionally the issuer's JWKS URL when its metadata
// does not give one.
const (
	envOAuthIssuer   = "TOOLREG_MCP_OAUTH_ISSUER"
	envOAuthResource = "TOOLREG_MCP_OAUTH_RESOURCE"
	envOAuthJWKS     = "TOOLREG_MCP_OAUTH_JWKS"
)

// runMCP serves the selected tools to MCP clients: over stdio, or over
// streamable HTTP in stateless mode with -http.
func (c *cli) runMCP(ctx context.Context, args []string) int {
	o, pos, code := c.parseFlags("mcp", args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "agent mcp: unexpected arguments %q\n", pos)
		return 2
	}
	addr, tokenFile, verbose, sel := &o.httpAddr, &o.tokenFile, &o.verbose, o.sel
	ctx, err := sel.withPolicy(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	token, err := c.mcpToken(*tokenFile)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent mcp: %v\n", err)
		return 2
	}
	if token != "" && *tokenFile != "" {
		// A token read from a file is a secret like the one in the
		// environment: kept out of stderr and the tools' results.
		c.stderr = redact.Writer(c.stderr, token)
		getenv := sel.getenv
		sel.getenv = func(k string) string {
			if k == envMCPToken {
				return token
			}
			return getenv(k)
		}
	}
	if *addr == "" {
		// Over stdio, stdout carries the protocol: a console exporter
		// writing there would break it.
		for _, v := range []string{telemetry.EnvTracesExporter, telemetry.EnvMetricsExporter} {
			if strings.EqualFold(strings.TrimSpace(c.getenv(v)), "console") {
				fmt.Fprintf(c.stderr, "agent mcp: %s=console would write to stdout, which carries the protocol over stdio; use otlp, or serve with -http\n", v)
				return 2
			}
		}
	}
	tel, flush, err := c.startTelemetry(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent mcp: %v\n", err)
		return 2
	}
	defer flush()
	sel.telemetry = tel
	// Logs go to stderr: on stdio, stdout carries the protocol.
	logger := slog.New(slog.DiscardHandler)
	if *verbose {
		logger = slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
		// The runtime's own figure, GOGC's or serverGCPercent's, read
		// by setting it back: runtime/metrics, which would read it,
		// builds a table of every metric as the agent and each of its
		// workers start. SetGCPercent(-1) waits for a collection that
		// is marking to end; at start, on a heap of a megabyte, that is
		// little, and only under -v.
		percent := debug.SetGCPercent(-1)
		debug.SetGCPercent(percent)
		v := strconv.Itoa(percent)
		if percent < 0 {
			v = "off"
		}
		logger.Debug("mcp: the garbage collector's target", "gogc", v)
	}
	sel.warm = true
	reg, closeTools, err := sel.toolSet(ctx, c.stderr, logger)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	// The tools of mounted servers that change are served as they
	// change, and the clients told.
	current, follow := sel.serveLive(reg, c.stderr)
	srv, err := toolmcp.NewServer(reg, &toolmcp.ServerOptions{Logger: logger, Skills: c.tools.skills(), Telemetry: tel, Tools: current})
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	// Ctrl-C and SIGTERM end the server; over HTTP, the calls in flight
	// finish first, within the grace period.
	ctx, stop := c.interruptible(ctx)
	defer stop()
	if c.terminate != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-c.terminate:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	fctx, stopFollowing := context.WithCancel(ctx)
	var following sync.WaitGroup
	following.Go(func() { follow(fctx, srv) })
	defer following.Wait()
	defer stopFollowing()
	if *addr == "" {
		in, out, perr := protocolStdio(c.stdin, c.stdout)
		if perr != nil {
			fmt.Fprintf(c.stderr, "agent mcp: %v\n", perr)
			return 1
		}
		sel.startWarmUp()
		err = toolmcp.ServeStdio(ctx, srv, in, out)
	} else {
		oauth, err := c.mcpOAuth()
		if err != nil {
			fmt.Fprintf(c.stderr, "agent mcp: %v\n", err)
			return 2
		}
		if oauth != nil {
			// A token without a tool's scopes gets 403 and the scopes
			// to ask for.
			oauth.Capabilities = func(name string) (tool.Capability, bool) {
				served := reg
				if current != nil {
					served = current()
				}
				e, ok := served.Lookup(name)
				return e.Capabilities | e.Reaches, ok
			}
		}
		ln, err := listenMCP(ctx, *addr, token, resolveIP, oauth != nil)
		if err != nil {
			fmt.Fprintf(c.stderr, "agent mcp: %v\n", err)
			return 2
		}
		// The workers started ahead start once the listener takes
		// connections, so that the first answer does not wait for them.
		sel.startWarmUp()
		auth := "no token: loopback only"
		switch {
		case oauth != nil:
			auth = "OAuth access tokens of " + oauth.Issuer + " for " + oauth.Resource
		case token != "":
			auth = "clients send Authorization: Bearer <token>"
		}
		fmt.Fprintf(c.stderr, "agent: serving %d tools over MCP at http://%s/ (%s)\n", len(reg.Names()), ln.Addr(), auth)
		err = toolmcp.ServeHTTP(ctx, ln, srv, &toolmcp.HTTPOptions{Logger: logger, Token: token, OAuth: oauth, Telemetry: tel, Ready: sel.ready})
		if err == nil {
			return 0
		}
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	return 0
}

// mcpToken returns the bearer token from file, or from TOOLREG_MCP_TOKEN
// when file is "", or "" for none.
func (c *cli) mcpToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(c.getenv(envMCPToken)), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("-token-file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", fmt.Errorf("-token-file %s is empty", file)
	}
	return t, nil
}

// mcpOAuth returns the OAuth resource server of agent mcp -http from the
// environment, or nil when TOOLREG_MCP_OAUTH_ISSUER is not set.
func (c *cli) mcpOAuth() (*toolmcp.OAuth, error) {
	issuer := strings.TrimSpace(c.getenv(envOAuthIssuer))
	resource := strings.TrimSpace(c.getenv(envOAuthResource))
	if issuer == "" {
		if resource != "" {
			return nil, fmt.Errorf("%s is set without %s: name the authorization server too", envOAuthResource, envOAuthIssuer)
		}
		return nil, nil
	}
	for name, v := range map[string]string{envOAuthIssuer: issuer, envOAuthResource: resource} {
		u, err := url.Parse(v)
		if v == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("%s must be an http or https URL (%s: the authorization server's issuer; %s: this server's own URL, the audience of its tokens)", name, envOAuthIssuer, envOAuthResource)
		}
	}
	return &toolmcp.OAuth{Issuer: issuer, Resource: resource, JWKSURL: strings.TrimSpace(c.getenv(envOAuthJWKS))}, nil
}

// minTokenBytes is the shortest token accepted for a non-loopback server.
const minTokenBytes = 16

// lookupFunc resolves a host name to its addresses.
type lookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// resolveIP resolves a host name with the system's resolver.
func resolveIP(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// listenMCP listens on addr: a bare ":PORT" on loopback. Without a token
// of at least minTokenBytes, an address that is not loopback is refused:
// a host name (localhost too, which /etc/hosts may map anywhere) is
// resolved with lookup, every address must be loopback, and the server
// binds the address checked, not the name again. With oauth (access
// tokens required) any address is served.
func listenMCP(ctx context.Context, addr, token string, lookup lookupFunc, oauth bool) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-http %q: want HOST:PORT or :PORT: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if oauth || len(token) >= minTokenBytes {
		return net.Listen("tcp", net.JoinHostPort(host, port))
	}
	refuse := func(why string) error {
		return fmt.Errorf("-http %s %s, and every tool would be open to anyone who reaches it: "+
			"set %s, or -token-file FILE, to a secret of at least %d characters (for example the output of openssl rand -hex 32) "+
			"that clients send as Authorization: Bearer <token>; or serve on loopback with -http :PORT", addr, why, envMCPToken, minTokenBytes)
	}
	ips := []netip.Addr{}
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = append(ips, ip)
	} else {
		ips, err = lookup(ctx, host)
		if err != nil {
			return nil, refuse(fmt.Sprintf("cannot be checked to be a loopback address (%v)", err))
		}
		if len(ips) == 0 {
			return nil, refuse("resolves to no address, so it is not a loopback address")
		}
	}
	for _, ip := range ips {
		if !ip.Unmap().IsLoopback() {
			if ip.String() == host {
				return nil, refuse("is not a loopback address")
			}
			return nil, refuse(fmt.Sprintf("resolves to %s, which is not a loopback address", ip))
		}
	}
	// IPv4 first, as net.Listen prefers it.
	bind := ips[0]
	for _, ip := range ips {
		if ip.Unmap().Is4() {
			bind = ip.Unmap()
			break
		}
	}
	return net.Listen("tcp", net.JoinHostPort(bind.String(), port))
}

// mountRoots are the roots offered to mounted MCP servers: the workspace,
// -workdir or the current directory, as an absolute path; none when it
// cannot be told.
func (s *selection) mountRoots() []string {
	dir, err := filepath.Abs(cmp.Or(s.workDir, "."))
	if err != nil {
		return nil
	}
	return []string{dir}
}
