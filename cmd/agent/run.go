package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/toolreg/toolreg"
	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/sandbox"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolmcp"
)

// env looks up an environment variable; os.Getenv in main.
type env func(string) string

// cli is the process's view of the world, replaced in tests.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         env
	// interrupts delivers Ctrl-C; nil when there is no terminal to
	// interrupt from (tests).
	interrupts <-chan os.Signal
	// terminate delivers SIGTERM to agent mcp, which then drains; nil
	// for the other commands, which SIGTERM ends at once.
	terminate <-chan os.Signal
}

// run is the command line; it returns the exit status.
func (c *cli) run(ctx context.Context, args []string) int {
	// Whatever reaches stderr (errors, warnings, -v logs, the trace) is
	// redacted first.
	c.stderr = redact.Writer(c.stderr, secrets(c.getenv)...)
	if len(args) > 0 {
		switch args[0] {
		case "tools":
			return c.runTools(ctx, args[1:])
		case "call":
			return c.runCall(ctx, args[1:])
		case "mcp":
			return c.runMCP(ctx, args[1:])
		}
	}
	return c.runChat(ctx, args)
}

// selection holds the -tools and -disable flags, which default to the
// TOOLREG_TOOLS and TOOLREG_DISABLE environment variables.
type selection struct {
	keep, drop, deny string
	// netAllow is the egress allow list (-net-allow, TOOLREG_NET_ALLOW).
	netAllow string

	// isolation is the -isolate mode; workDir the -workdir workspace;
	// require is TOOLREG_REQUIRE_SANDBOX=1.
	isolation, workDir string
	require            bool
	// mounts are the -mcp specs of remote MCP servers whose tools join.
	mounts specList
	// mountEnv and mountHeaders are the -mcp-env and -mcp-header values,
	// by server name.
	mountEnv, mountHeaders serverValues
	getenv                 env
}

// specList collects the values of a repeated flag, checking each.
type specList []string

func (l *specList) String() string { return strings.Join(*l, " ") }

func (l *specList) Set(v string) error {
	if _, err := toolmcp.ParseSpec(v); err != nil {
		return err
	}
	*l = append(*l, v)
	return nil
}

// serverValues collects NAME=VALUE flags by server NAME.
type serverValues map[string][]string

func (v *serverValues) String() string { return "" } // values may be secret

func (v *serverValues) Set(s string) error {
	server, rest, err := toolmcp.ParseServerValue(s)
	if err != nil {
		return err
	}
	if *v == nil {
		*v = serverValues{}
	}
	(*v)[server] = append((*v)[server], rest)
	return nil
}

func (s *selection) register(fs *flag.FlagSet, getenv env) {
	s.getenv = getenv
	fs.StringVar(&s.keep, "tools", getenv("TOOLREG_TOOLS"), "comma-separated tool `ids` to offer (default all; env TOOLREG_TOOLS)")
	fs.StringVar(&s.drop, "disable", getenv("TOOLREG_DISABLE"), "comma-separated tool `ids` to leave out (env TOOLREG_DISABLE)")
	fs.StringVar(&s.netAllow, "net-allow", getenv(egress.EnvAllow), "let tools reach these local or private `destinations`, comma-separated hosts, host:port, IPs or CIDRs; all others but public addresses are refused (env "+egress.EnvAllow+")")
	fs.StringVar(&s.deny, "deny", getenv("TOOLREG_DENY"), "leave out every tool with one of these comma-separated `capabilities`: exec, network, write_files, read_files, env, unsafe (env TOOLREG_DENY)")
	fs.StringVar(&s.isolation, "isolate", cmp.Or(getenv("TOOLREG_ISOLATE"), "all"), "which tools run in sandboxed worker processes: `all`, capable (those with capabilities) or none (env TOOLREG_ISOLATE)")
	fs.StringVar(&s.workDir, "workdir", "", "the workspace, where tools with write_files may write besides the temp directory (default the current directory)")
	s.require = getenv(sandbox.RequireEnv) == "1"
}

// registerMounts adds the -mcp flag.
func (s *selection) registerMounts(fs *flag.FlagSet) {
	fs.Var(&s.mounts, "mcp", "mount the tools of an MCP server as NAME__tool: `NAME=COMMAND ARGS…` (stdio) or NAME=https://… (streamable HTTP); repeatable")
	fs.Var(&s.mountEnv, "mcp-env", "pass the environment variable VAR to the stdio server NAME, which otherwise gets only PATH, HOME, LANG, TMPDIR and the like: `NAME=VAR`; repeatable")
	fs.Var(&s.mountHeaders, "mcp-header", "send a header to the HTTP server NAME, $VAR expanded from the environment: `'NAME=Header: value'`, for example 'docs=Authorization: Bearer $DOCS_TOKEN'; repeatable")
}

// mountEnvs returns the -mcp-env values by server, each a list of
// variable names.
func (s *selection) mountEnvs() map[string][]string {
	var envs map[string][]string
	for server, vars := range s.mountEnv {
		if envs == nil {
			envs = map[string][]string{}
		}
		for _, v := range vars {
			envs[server] = append(envs[server], splitList(v)...)
		}
	}
	return envs
}

// withPolicy returns ctx with the egress policy of the -net-allow list,
// which the tools that reach destinations the model chose follow.
func (s *selection) withPolicy(ctx context.Context) (context.Context, error) {
	p, err := egress.Parse(s.netAllow)
	if err != nil {
		return ctx, fmt.Errorf("-net-allow (%s): %w", egress.EnvAllow, err)
	}
	return egress.WithPolicy(ctx, p), nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// toolSet builds the one tool set every front end uses: the compiled-in
// tools and those of the -mcp servers, narrowed by -tools, -disable and
// -deny, logging to logger. A server that cannot be reached is left out
// with a message on warn. close ends the mounted servers' sessions.
func (s *selection) toolSet(ctx context.Context, warn io.Writer, logger *slog.Logger) (reg *registry.Registry, close func(), err error) {
	close = func() {}
	local := toolreg.Toolbox()
	var keep []string
	if s.keep != "" {
		// Given but naming nothing (",", " ") keeps nothing: a selection
		// never fails open.
		keep = append([]string{}, splitList(s.keep)...)
		if len(keep) == 0 {
			return nil, close, fmt.Errorf("-tools %q names no tool id", s.keep)
		}
	}
	caps := tool.Capability(0)
	if s.deny != "" {
		var ok bool
		if caps, ok = tool.ParseCapabilities(s.deny); !ok {
			return nil, close, fmt.Errorf("-deny %q: want capabilities from exec, network, write_files, read_files, env, unsafe", s.deny)
		}
	}
	reg, err = local.Select(keep, splitList(s.drop))
	if err != nil {
		return nil, close, fmt.Errorf("tool selection: %w", err)
	}
	if len(s.mounts) > 0 {
		m, err := toolmcp.Mount(ctx, s.mounts, &toolmcp.MountOptions{Warn: warn, Stderr: warn, Reserved: local.Names(), Logger: logger,
			Getenv: s.getenv, Env: s.mountEnvs(), Headers: s.mountHeaders})
		if err != nil {
			return nil, close, fmt.Errorf("-mcp: %w", err)
		}
		close = func() { _ = m.Close() } // the servers are going away with the process
		if reg, err = reg.With(m.Entries()...); err != nil {
			close()
			return nil, func() {}, fmt.Errorf("-mcp: %w", err)
		}
	}
	reg, stop, err := s.isolate(reg.WithoutCapabilities(caps).WithLogger(logger).WithRedact(redactor(s.getenv)), warn, logger)
	if err != nil {
		close()
		return nil, func() {}, err
	}
	unmount := close
	return reg, func() { stop(); unmount() }, nil
}

func (c *cli) runTools(ctx context.Context, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := flag.NewFlagSet("agent tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the exact tools spec table sent to the model")
	verbose := fs.Bool("v", false, "also show each tool's id, timeout, capabilities, source file and parameters")
	var sel selection
	sel.register(fs, c.getenv)
	sel.registerMounts(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agent tools [-json] [-v] [-tools ids] [-disable ids] [-deny caps] [-mcp NAME=SERVER]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "agent tools: unexpected arguments %q\n", fs.Args())
		return 2
	}
	reg, closeTools, err := sel.toolSet(ctx, stderr, nil)
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	if *asJSON {
		b, err := json.MarshalIndent(reg.Specs(), "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "agent: encode the spec table: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, e := range reg.Tools() {
		if e.Server != "" {
			fmt.Fprintf(tw, "%s\t%s [remote: %s, not audited]\n", e.Name, firstLine(e.Description), e.Server)
			if *verbose {
				fmt.Fprintf(tw, "\tserver: %s, timeout: %s, taken to have every capability: %s\n", e.Server, e.Timeout, e.Capabilities)
				fmt.Fprintf(tw, "\tparameters: %s\n", e.Parameters)
			}
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\n", e.Name, firstLine(e.Description))
		if *verbose {
			fmt.Fprintf(tw, "\tid: %s, timeout: %s, file: %s\n", e.ID, e.Timeout, e.File)
			fmt.Fprintf(tw, "\tcapabilities: %s (found in its code: %s)\n", e.Capabilities, e.Reaches)
			fmt.Fprintf(tw, "\tisolation: %s\n", isolation(sel.isolation, e))
			fmt.Fprintf(tw, "\tparameters: %s\n", e.Parameters)
		}
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 1
	}
	return 0
}

// firstLine returns the first sentence or line of a description.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}

func (c *cli) runCall(ctx context.Context, args []string) int {
	stdin, stdout, stderr := c.stdin, c.stdout, c.stderr
	fs := flag.NewFlagSet("agent call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sel selection
	sel.register(fs, c.getenv)
	sel.registerMounts(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agent call [-tools ids] [-disable ids] NAME 'JSON'   (or - to read the arguments from stdin)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return 2
	}
	name, argText := fs.Arg(0), "{}"
	if fs.NArg() == 2 {
		argText = fs.Arg(1)
	}
	if argText == "-" {
		// Read one byte past the cap, to know it was passed without
		// reading all of an endless stdin.
		b, err := io.ReadAll(io.LimitReader(stdin, registry.DefaultMaxArgs+1))
		if err != nil {
			fmt.Fprintf(stderr, "agent: read arguments from stdin: %v\n", err)
			return 1
		}
		if len(b) > registry.DefaultMaxArgs {
			fmt.Fprintf(stderr, "agent: the arguments on stdin are longer than %d bytes, the most a tool accepts\n", registry.DefaultMaxArgs)
			return 1
		}
		argText = string(b)
	}
	ctx, err := sel.withPolicy(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	reg, closeTools, err := sel.toolSet(ctx, stderr, nil)
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	res := reg.Call(ctx, name, argText)
	if res.Failed() {
		fmt.Fprintln(stderr, res.Text)
		return 1
	}
	fmt.Fprintln(stdout, res.Text)
	return 0
}

// isolation describes where a compiled-in tool runs under -isolate mode,
// and what the kernel enforces there.
func isolation(mode string, e registry.Entry) string {
	m, err := sandbox.ParseIsolation(mode)
	if err != nil || !m.Isolated(e) {
		return "in process (-isolate " + mode + ")"
	}
	return "worker process; restrictions " + sandbox.Check(e.Caps()).String()
}

// secretEnv are the variables whose values are secrets: never shown on
// stderr, in -json events or in tool results.
var secretEnv = []string{"LLM_API_KEY", "BRAVE_API_KEY", "TAVILY_API_KEY", envMCPToken}

// secrets returns the values of the secret variables that are set.
func secrets(getenv env) []string {
	var out []string
	for _, k := range secretEnv {
		if v := getenv(k); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// redactor removes the secrets of the environment, and credentials of a
// known shape, from tool results.
func redactor(getenv env) func(string) string {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	secrets := secrets(getenv)
	return func(s string) string { return redact.String(s, secrets...) }
}
