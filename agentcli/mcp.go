package agentcli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strings"

	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/toolmcp"
)

// envMCPToken holds the bearer token of agent mcp -http.
const envMCPToken = "TOOLREG_MCP_TOKEN"

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
	}
	sel.warm = true
	reg, closeTools, err := sel.toolSet(ctx, c.stderr, logger)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	srv, err := toolmcp.NewServer(reg, &toolmcp.ServerOptions{Logger: logger, Skills: c.tools.skills(), Telemetry: tel})
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
	if *addr == "" {
		err = toolmcp.ServeStdio(ctx, srv, c.stdin, c.stdout)
	} else {
		ln, err := listenMCP(*addr, token)
		if err != nil {
			fmt.Fprintf(c.stderr, "agent mcp: %v\n", err)
			return 2
		}
		auth := "no token: loopback only"
		if token != "" {
			auth = "clients send Authorization: Bearer <token>"
		}
		fmt.Fprintf(c.stderr, "agent: serving %d tools over MCP at http://%s/ (%s)\n", len(reg.Names()), ln.Addr(), auth)
		err = toolmcp.ServeHTTP(ctx, ln, srv, &toolmcp.HTTPOptions{Logger: logger, Token: token, Telemetry: tel, Ready: sel.ready})
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

// minTokenBytes is the shortest token accepted for a non-loopback server.
const minTokenBytes = 16

// listenMCP listens on addr: a bare ":PORT" on loopback. An address that
// is not loopback (a host name other than localhost counts as not) is
// refused without a token of at least minTokenBytes.
func listenMCP(addr, token string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-http %q: want HOST:PORT or :PORT: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(host)
	loopback := strings.EqualFold(host, "localhost") || err == nil && ip.IsLoopback()
	if !loopback && len(token) < minTokenBytes {
		return nil, fmt.Errorf("-http %s is not a loopback address, and every tool would be open to anyone who reaches it: "+
			"set %s, or -token-file FILE, to a secret of at least %d characters (for example the output of openssl rand -hex 32) "+
			"that clients send as Authorization: Bearer <token>; or serve on loopback with -http :PORT", addr, envMCPToken, minTokenBytes)
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}
