package agentcli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/sandbox"
	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/telemetry/fromenv"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolmcp"
)

// env looks up an environment variable; os.Getenv in main.
type env func(string) string

// cli is the process's view of the world, replaced in tests.
type cli struct {
	// tools are the compiled-in tools the agent offers.
	tools          CompiledTools
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         env
	// interrupts delivers Ctrl-C; nil when there is no terminal to
	// interrupt from (tests).
	interrupts <-chan os.Signal
	// terminate delivers SIGTERM to agent mcp, which then drains; nil
	// for the other commands, which SIGTERM ends at once.
	terminate <-chan os.Signal
	// retry is the retry policy of the model's requests; tests count
	// retries on the trace.
	retry chat.RetryPolicy
	// rawStderr is stderr before redaction, to tell whether it is a
	// terminal.
	rawStderr io.Writer
	// learnt are the secrets learnt while the agent runs (the OAuth
	// tokens of mounted servers), redacted wherever the environment's
	// are; set by run.
	learnt *redact.Set
}

// startTelemetry sets up OpenTelemetry from the OTEL_* environment (off
// unless an exporter is named; see package telemetry/fromenv) and returns the
// providers and a function that flushes them, which reports a failure on
// stderr.
func (c *cli) startTelemetry(ctx context.Context) (*telemetry.Providers, func(), error) {
	p, shutdown, err := fromenv.Setup(ctx, c.getenv)
	if err != nil {
		return nil, func() {}, err
	}
	p.Redact = redactor(c.getenv, c.tools, c.learnt)
	return p, func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryFlushTimeout)
		defer cancel()
		if err := shutdown(sctx); err != nil {
			fmt.Fprintf(c.stderr, "agent: %v\n", err)
		}
	}, nil
}

// telemetryFlushTimeout bounds the export of the last spans and metrics
// when the agent ends.
const telemetryFlushTimeout = 5 * time.Second

// run is the command line; it returns the exit status. The subcommand may
// follow global flags, and flags may follow it.
func (c *cli) run(ctx context.Context, args []string) int {
	// Whatever reaches stderr (errors, warnings, -v logs, the trace) is
	// redacted first; the terminal behind it, if any, is kept for line
	// editing and the waiting indicator.
	c.rawStderr = c.stderr
	if c.learnt == nil {
		c.learnt = &redact.Set{}
	}
	c.stderr = c.learnt.Writer(c.stderr, secrets(c.getenv, c.tools)...)
	cmd, rest := c.splitCommand(args)
	switch cmd {
	case "tools":
		return c.runTools(ctx, rest)
	case "call":
		return c.runCall(ctx, rest)
	case "mcp":
		return c.runMCP(ctx, rest)
	case "log":
		return c.runLog(rest)
	case "skills":
		return c.runSkills(ctx, rest)
	case "help":
		return c.runHelp(rest)
	case "version":
		return c.runVersion(rest)
	case "config":
		return c.runConfig(rest)
	}
	return c.runChat(ctx, args)
}

// selection holds the -tools and -disable flags, which default to the
// TOOLREG_TOOLS and TOOLREG_DISABLE environment variables.
type selection struct {
	// tools are the compiled-in tools, before the selection.
	tools            CompiledTools
	keep, drop, deny string
	// netAllow is the egress allow list (-net-allow, TOOLREG_NET_ALLOW).
	netAllow string

	// isolation is the -isolate mode; workDir the -workdir workspace;
	// require is TOOLREG_REQUIRE_SANDBOX=1.
	isolation, workDir string
	require            bool
	// protect are the config file and the files read for it, kept
	// read-only by the workers (sandbox.Config.Protect).
	protect []string
	// workers is the most live worker processes (-workers,
	// TOOLREG_WORKERS); workersErr says what is wrong with the variable.
	workers    positiveInt
	workersErr error
	// memory is a worker's memory limit (-worker-memory,
	// TOOLREG_WORKER_MEMORY); memoryErr says what is wrong with the
	// variable.
	memory    byteSize
	memoryErr error
	// warm starts workers ahead, a spare and one for each of the first
	// tools (agent mcp, a conversation at a terminal), once warmUp is
	// called: isolate sets it.
	warm   bool
	warmUp func()
	// listOnly says the command shows the tools and calls none (agent
	// tools): toolSet checks the -isolate settings as for a call, and
	// makes the agent undumpable as a pool does, but makes no pool,
	// whose temp directory, and search of the workspace for
	// repositories, would only be undone at exit.
	listOnly bool
	// mounts are the -mcp specs of remote MCP servers whose tools join.
	mounts specList
	// mountEnv and mountHeaders are the -mcp-env and -mcp-header values,
	// by server name.
	mountEnv, mountHeaders serverValues
	getenv                 env
	// oauth holds the OAuth settings of the HTTP servers (-mcp-oauth
	// and the mcpServers oauth objects); see mcpoauth.go.
	oauth mountOAuth
	// learnt receives the secrets learnt while the agent runs (the
	// cli's); terminal says a person is at stderr, who can sign in to a
	// server in a browser; stateDir is where tokens are kept.
	learnt   *redact.Set
	terminal bool
	stateDir func() (string, error)
	// telemetry traces the calls of mounted tools; off when nil.
	telemetry *telemetry.Providers
	// ready reports whether the mounted servers are all there; set by
	// toolSet, nil without mounts.
	ready func(context.Context) error
	// mounted is the tool set with the mounted servers' tools, and
	// mountedChanged the channel closed at their first change after
	// toolSet made it; set by toolSet, nil without mounts.
	mounted        *mountedTools
	mountedChanged <-chan struct{}
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
	s.workers = positiveInt(sandbox.DefaultMaxWorkers)
	if v := getenv("TOOLREG_WORKERS"); v != "" {
		if err := s.workers.Set(v); err != nil {
			s.workersErr = fmt.Errorf("TOOLREG_WORKERS: %w", err)
		}
	}
	s.memory = byteSize(0)
	if v := getenv("TOOLREG_WORKER_MEMORY"); v != "" {
		if err := s.memory.Set(v); err != nil {
			s.memoryErr = fmt.Errorf("TOOLREG_WORKER_MEMORY: %w", err)
		}
	}
	fs.Var(memoryFlag{s}, "worker-memory", "the most memory a tool worker may allocate, as 512MiB or 2GiB; none for no limit (default 1GiB; env TOOLREG_WORKER_MEMORY)")
	fs.Var(workersFlag{s}, "workers", "the most tool worker `processes` alive at once; calls beyond them wait (default "+strconv.Itoa(sandbox.DefaultMaxWorkers)+"; env TOOLREG_WORKERS)")
}

// workersFlag is -workers: a value given on the command line replaces
// TOOLREG_WORKERS, and with it the variable's error, if it had one.
type workersFlag struct{ s *selection }

func (f workersFlag) String() string {
	if f.s == nil {
		return strconv.Itoa(sandbox.DefaultMaxWorkers)
	}
	return f.s.workers.String()
}

func (f workersFlag) Set(v string) error {
	if err := f.s.workers.Set(v); err != nil {
		return err
	}
	f.s.workersErr = nil
	return nil
}

// memoryFlag is -worker-memory: a value given on the command line
// replaces TOOLREG_WORKER_MEMORY, and with it the variable's error.
type memoryFlag struct{ s *selection }

func (f memoryFlag) String() string {
	if f.s == nil {
		return "1GiB"
	}
	return f.s.memory.String()
}

func (f memoryFlag) Set(v string) error {
	if err := f.s.memory.Set(v); err != nil {
		return err
	}
	f.s.memoryErr = nil
	return nil
}

// minWorkerMemory is the least memory limit a worker is given: below it
// the Go runtime of the worker cannot start.
const minWorkerMemory = 64 << 20

// byteSize is a memory limit in bytes: 0 for the default, -1 for none.
type byteSize int64

func (n *byteSize) String() string {
	switch {
	case *n == 0:
		return "1GiB"
	case *n < 0:
		return "none"
	case *n%(1<<30) == 0:
		return strconv.FormatInt(int64(*n)>>30, 10) + "GiB"
	case *n%(1<<20) == 0:
		return strconv.FormatInt(int64(*n)>>20, 10) + "MiB"
	}
	return strconv.FormatInt(int64(*n), 10)
}

// Set reads a size: bytes, or a number with KiB, MiB, GiB (or K, M, G,
// KB, MB, GB, all powers of 1,024), or none.
func (n *byteSize) Set(v string) error {
	t := strings.TrimSpace(v)
	if strings.EqualFold(t, "none") {
		*n = -1
		return nil
	}
	mult := int64(1)
	for _, u := range []struct {
		suffixes []string
		m        int64
	}{{[]string{"GiB", "GB", "G"}, 1 << 30}, {[]string{"MiB", "MB", "M"}, 1 << 20}, {[]string{"KiB", "KB", "K"}, 1 << 10}} {
		for _, suf := range u.suffixes {
			if len(t) > len(suf) && strings.EqualFold(t[len(t)-len(suf):], suf) {
				t, mult = strings.TrimSpace(t[:len(t)-len(suf)]), u.m
				break
			}
		}
		if mult != 1 {
			break
		}
	}
	i, err := strconv.ParseInt(t, 10, 64)
	if err != nil || i <= 0 || i > (1<<62)/mult {
		return fmt.Errorf("%q is not a size: want bytes or a number with KiB, MiB or GiB, such as 512MiB, or none", v)
	}
	if i*mult < minWorkerMemory {
		return fmt.Errorf("%q is below the least a worker needs, 64MiB", v)
	}
	*n = byteSize(i * mult)
	return nil
}

// positiveInt is a flag of a whole number of at least 1.
type positiveInt int

func (n *positiveInt) String() string { return strconv.Itoa(int(*n)) }

func (n *positiveInt) Set(v string) error {
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || i < 1 {
		return fmt.Errorf("%q is not a whole number of at least 1", v)
	}
	*n = positiveInt(i)
	return nil
}

// registerMounts adds the -mcp flag.
func (s *selection) registerMounts(fs *flag.FlagSet) {
	fs.Var(&s.mounts, "mcp", "mount the tools of an MCP server as NAME__tool: `NAME=COMMAND ARGS…` (stdio) or NAME=https://… (streamable HTTP); repeatable")
	fs.Var(&s.mountEnv, "mcp-env", "pass the environment variable VAR to the stdio server NAME, which otherwise gets only PATH, HOME, LANG, TMPDIR and the like: `NAME=VAR`; repeatable")
	fs.Var(&s.oauth, "mcp-oauth", "the OAuth client of the HTTP server NAME, which otherwise signs in with a client it registers: `'NAME=key=value,…'` with keys client_id, client_secret ($VAR), scopes (space-separated), grant (client_credentials for unattended runs), issuer, callback_port; NAME=off for none; repeatable")
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
	local, err := compiledIn(s.tools)
	if err != nil {
		return nil, close, err
	}
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
	var m *toolmcp.Mounts
	if len(s.mounts) > 0 {
		var handlers map[string]auth.OAuthHandler
		if handlers, err = s.oauthHandlers(warn); err != nil {
			return nil, close, err // it names the flag or file
		}
		var policy *egress.Policy
		if policy, err = egress.Parse(s.netAllow); err != nil {
			return nil, close, fmt.Errorf("-net-allow (%s): %w", egress.EnvAllow, err)
		}
		m, err = toolmcp.Mount(ctx, s.mounts, &toolmcp.MountOptions{Warn: warn, Stderr: warn, Reserved: local.Names(), Logger: logger,
			Getenv: s.getenv, Env: s.mountEnvs(), Headers: s.mountHeaders, Telemetry: s.telemetry, Roots: s.mountRoots(),
			OAuth: handlers, SignInTimeout: s.signInTimeout(), Egress: policy, Secrets: s.learnt})
		if err != nil {
			return nil, close, fmt.Errorf("-mcp: %w", err)
		}
		close = func() { _ = m.Close() } // the servers are going away with the process
		s.ready = m.Ready
	}
	// The mounted tools join after the local ones are narrowed: they
	// change when a server says so, and are narrowed by -deny as they
	// join (mountedTools.registry).
	reg, stop, err := s.isolate(reg.WithoutCapabilities(caps).WithLogger(logger).WithRedact(redactor(s.getenv, s.tools, s.learnt)), warn, logger)
	if err != nil {
		close()
		return nil, func() {}, err
	}
	unmount := close
	close = func() { stop(); unmount() }
	if m != nil {
		s.mounted = &mountedTools{base: reg, mounts: m, deny: caps}
		s.mountedChanged = m.Changed()
		if reg, err = s.mounted.registry(); err != nil {
			close()
			return nil, func() {}, err
		}
	}
	return reg, close, nil
}

// isolationOf describes where a compiled-in tool runs under the -isolate
// mode, and what its worker enforces there: the kernel's restrictions,
// and the gaps of where the agent runs (a workspace that holds the home
// directory, a config no mount keeps read-only).
func (s *selection) isolationOf(e registry.Entry) string {
	m, err := sandbox.ParseIsolation(s.isolation)
	if err != nil || !m.Isolated(e) {
		return "in process (-isolate " + s.isolation + ")"
	}
	// What the workers of isolate would enforce, where the agent runs.
	cfg := sandbox.Config{WorkDir: s.workDir, Hide: s.hidden(), Protect: s.protect}
	return "worker process; restrictions " + cfg.Check(e.AllCapabilities()).String()
}

// agentSecrets are the agent's own variables whose values are secrets:
// never shown on stderr, in -json events or in tool results. The tools'
// are Tools.Secrets.
var agentSecrets = []string{"LLM_API_KEY", envMCPToken}

// secrets returns the values of the secret variables that are set: the
// agent's and those that t names.
func secrets(getenv env, t CompiledTools) []string {
	if getenv == nil {
		return nil
	}
	var out []string
	for _, k := range slices.Concat(agentSecrets, t.Secrets) {
		if v := getenv(k); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// redactor removes the secrets of the environment, those learnt so far,
// and credentials of a known shape, from tool results.
func redactor(getenv env, t CompiledTools, learnt *redact.Set) func(string) string {
	secrets := secrets(getenv, t)
	return func(s string) string { return learnt.String(s, secrets...) }
}
