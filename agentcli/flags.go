package agentcli

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/internal/nearest"
)

// commands are the subcommands; any other first argument starts a question.
var commands = []string{"tools", "call", "skills", "mcp", "log", "config", "help", "version"}

// configured are the commands the config file applies to.
var configured = []string{"", "tools", "call", "mcp", "config"}

// flagGroups orders the global flags of -h by what they are about. Every
// global flag is in exactly one group (TestFlagGroups).
var flagGroups = []struct {
	name  string
	flags []string
}{
	{"model", []string{"profile", "config", "provider", "base-url", "model", "m", "system", "max-steps", "max-tool-calls", "timeout", "first-byte-timeout", "no-stream", "strict", "no-strict", "images"}},
	{"tools", []string{"tools", "disable", "mcp", "mcp-config", "mcp-env", "mcp-header", "mcp-oauth", "tool-search", "pin"}},
	{"safety", []string{"deny", "yes", "net-allow", "isolate", "workers", "worker-memory", "workdir"}},
	{"output", []string{"raw", "q", "v", "json", "continue", "c", "no-log", "version"}},
}

// commandFlags are the flags only one subcommand has, shown in its help.
var commandFlags = map[string][]string{
	"mcp":   {"http", "token-file"},
	"tools": {"search"},
	"log":   {"n"},
}

// defaultFirstByte is how long a request waits for the server to begin its
// answer before it fails.
const defaultFirstByte = 60 * time.Second

// options are the flags of every command: the global ones, and those of
// the subcommand being parsed.
type options struct {
	provider, baseURL, model, apiKey string
	system                           string
	maxSteps, maxToolCalls           int
	timeout, firstByte               time.Duration
	noStream, quiet, verbose, asJSON bool
	raw, resume, noLog, version      bool
	// resumeID is the conversation -continue=ID names; "" for the last.
	resumeID string
	// yes allows tools that change things without asking.
	yes bool
	// strictOn and strictOff are -strict and -no-strict; strict is what
	// resolve makes of them and the provider (see strictFor).
	strictOn, strictOff, strict bool
	// images is -images: whether the model is shown the images of tool
	// results (see imagesFor).
	images imagesMode
	sel    selection
	// toolSearch is -tool-search; pin is -pin, the tools loaded from the
	// start when it is on.
	toolSearch searchMode
	pin        string
	// search is agent tools' -search query.
	search string

	// configFile, profile and mcpConfig are -config, -profile and
	// -mcp-config; keyEnv is the variable the key was read from, when the
	// config file names one; sources are the settings and where each came
	// from, for agent config.
	configFile, profile, mcpConfig, keyEnv string
	sources                                []sourced
	// aliases are the model aliases of the config file.
	aliases map[string]string

	// httpAddr and tokenFile are agent mcp's -http and -token-file;
	// count is agent log's -n.
	httpAddr, tokenFile string
	count               int
}

// newFlags returns the flag set of command ("" for the agent itself): the
// global flags, plus the command's own. Its output is discarded: run
// prints help on stdout and errors on stderr itself.
func (c *cli) newFlags(command string) (*flag.FlagSet, *options) {
	name := strings.TrimSpace("agent " + command)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	o := &options{apiKey: c.getenv("LLM_API_KEY")}
	fs.StringVar(&o.provider, "provider", "", "a preset of base URL and model: "+providerNames())
	fs.StringVar(&o.baseURL, "base-url", "", "the endpoint's API root (env LLM_BASE_URL; default "+defaultBaseURL+", DeepSeek)")
	fs.StringVar(&o.model, "model", "", "the model, or an alias of the config file (env LLM_MODEL; default "+defaultModel+")")
	fs.StringVar(&o.model, "m", "", "short for -model")
	fs.StringVar(&o.profile, "profile", "", "use the profile `NAME` of the config file (env TOOLREG_PROFILE)")
	fs.StringVar(&o.configFile, "config", "", "read the config `file` (env "+envConfig+"; default $XDG_CONFIG_HOME/toolreg/config.toml)")
	fs.StringVar(&o.system, "system", defaultSystem, "the system `prompt` (default: one that says the agent may use tools)")
	fs.IntVar(&o.maxSteps, "max-steps", chat.DefaultMaxSteps, "the most model requests in one turn")
	fs.IntVar(&o.maxToolCalls, "max-tool-calls", chat.DefaultMaxToolCalls, "the most tool calls run in one turn")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "the longest a one-shot run may take (0: no limit)")
	fs.DurationVar(&o.firstByte, "first-byte-timeout", defaultFirstByte, "how long to wait for the server to begin an answer (0: no limit)")
	fs.BoolVar(&o.noStream, "no-stream", false, "ask for whole answers, for endpoints that cannot stream")
	fs.BoolVar(&o.strictOn, "strict", false, "send the strict tool schemas (strict function calling) even if the provider's preset does not; in agent tools -json and agent call, the strict table and decoding")
	fs.BoolVar(&o.strictOff, "no-strict", false, "send the plain tool schemas even to a provider whose preset uses strict function calling")
	o.images = imagesMode(c.getenv("TOOLREG_IMAGES"))
	if o.images.Set(string(o.images)) != nil {
		o.images = "auto"
	}
	fs.Var(&o.images, "images", "show the model the images mounted tools answer with: `auto` (when the provider's preset takes images: openai, moonshot), on or off (they are described); env TOOLREG_IMAGES")
	o.sel.register(fs, c.getenv)
	o.sel.tools = c.tools
	o.sel.learnt, o.sel.stateDir = c.learnt, c.stateDir
	_, o.sel.terminal = terminalFile(c.rawStderr)
	o.sel.registerMounts(fs)
	o.toolSearch = searchMode(c.getenv("TOOLREG_TOOL_SEARCH"))
	if o.toolSearch.Set(string(o.toolSearch)) != nil {
		o.toolSearch = "auto"
	}
	fs.Var(&o.toolSearch, "tool-search", "offer the model search_tools and the tools it finds instead of every tool: `auto` (when there are more than 32 tools or their schemas pass 16 KiB), on or off (env TOOLREG_TOOL_SEARCH)")
	fs.StringVar(&o.pin, "pin", c.getenv("TOOLREG_PIN"), "with tool search on, comma-separated tool `names` offered from the start (env TOOLREG_PIN)")
	fs.StringVar(&o.mcpConfig, "mcp-config", "", "mount the MCP servers of a JSON `file` in the mcpServers shape of Claude Desktop, Claude Code's .mcp.json and Cursor")
	fs.BoolVar(&o.yes, "yes", false, "let tools that run programs or write files run without asking")
	fs.BoolVar(&o.raw, "raw", false, "print answers as the model wrote them, without rendering Markdown on a terminal")
	fs.BoolVar(&o.quiet, "q", false, "no trace of tool calls on stderr")
	fs.BoolVar(&o.verbose, "v", false, "more detail: log requests, timings and token usage on stderr; in agent tools, each tool's parameters")
	fs.BoolVar(&o.asJSON, "json", false, "JSON on stdout: one event per line for a question; the spec table for agent tools")
	fs.Var(&continueFlag{o}, "continue", "continue the last kept conversation, or with -continue=ID (or -continue ID) the one agent log lists as ID or number")
	fs.Var(&continueFlag{o}, "c", "short for -continue")
	fs.BoolVar(&o.noLog, "no-log", c.getenv("TOOLREG_NO_LOG") != "", "keep no record of this conversation (env TOOLREG_NO_LOG)")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	switch command {
	case "mcp":
		fs.StringVar(&o.httpAddr, "http", "", "serve streamable HTTP on this `address` instead of stdio; a bare :PORT is loopback, and any other address needs a token")
		fs.StringVar(&o.tokenFile, "token-file", "", "read the bearer token that -http clients must send from this `file` (or set "+envMCPToken+")")
	case "log":
		fs.IntVar(&o.count, "n", 10, "how many conversations to list")
	case "tools":
		fs.StringVar(&o.search, "search", "", "print what search_tools answers the model for this `query`")
	}
	return fs, o
}

// parseArgs parses the flags of fs anywhere in args, before, between or
// after the positional arguments, which it returns; "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// splitCommand finds the subcommand in args, which may follow global
// flags: it returns the command ("" for a question or a conversation) and
// the other arguments.
func (c *cli) splitCommand(args []string) (string, []string) {
	fs, _ := c.newFlags("")
	for _, cmd := range commands {
		for _, name := range commandFlags[cmd] {
			if fs.Lookup(name) == nil {
				fs.String(name, "", "")
			}
		}
	}
	if fs.Parse(args) != nil {
		return "", args // the parse that follows reports it
	}
	rest := fs.Args()
	at := len(args) - len(rest)
	if len(rest) == 0 || (at > 0 && args[at-1] == "--") || !slices.Contains(commands, rest[0]) {
		return "", args
	}
	return rest[0], slices.Concat(args[:at], rest[1:])
}

// parseFlags parses the flags of command; on -h it prints the command's
// help on stdout. It returns the exit status to end with, or -1 to go on.
func (c *cli) parseFlags(command string, args []string) (*options, []string, int) {
	fs, o := c.newFlags(command)
	pos, err := parseArgs(fs, joinContinue(args))
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.help(c.stdout, command)
		return nil, nil, 0
	case err == nil:
		err = checkCounts(fs)
	default:
		err = errors.New(explainFlagError(fs, err))
	}
	if err != nil {
		name := strings.TrimSpace("agent " + command)
		fmt.Fprintf(c.stderr, "%s: %v\nrun '%s -h' for the flags\n", name, err, name)
		return nil, nil, exitUsage
	}
	if slices.Contains(configured, command) {
		if err := c.loadSettings(command, fs, o); err != nil {
			fmt.Fprintf(c.stderr, "%s: %v\n", strings.TrimSpace("agent "+command), err)
			return nil, nil, exitUsage
		}
	}
	return o, pos, -1
}

// runHelp is agent help [topic].
func (c *cli) runHelp(args []string) int {
	_, pos, code := c.parseFlags("help", args)
	if code >= 0 {
		return code
	}
	switch {
	case len(pos) == 0:
		c.help(c.stdout, "")
		return 0
	case len(pos) > 1:
		fmt.Fprintf(c.stderr, "agent help: one topic at a time, not %q\n", pos)
		return 2
	}
	topic := pos[0]
	if !slices.Contains(helpTopics, topic) {
		msg := fmt.Sprintf("no topic %q", topic)
		if near := nearest.Word(helpTopics, topic); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		fmt.Fprintf(c.stderr, "agent help: %s; topics: %s\n", msg, strings.Join(helpTopics, ", "))
		return exitUsage
	}
	c.help(c.stdout, topic)
	return 0
}

// helpTopics are what agent help knows about.
var helpTopics = []string{"chat", "tools", "call", "skills", "mcp", "log", "config", "help", "version", "env", "providers", "exit"}

const usageHead = `agent: a chat agent whose tools are compiled in.

usage:
  agent [flags] "question"        one question; the answer on stdout
  cat file | agent "question"     the question, then the piped text
  echo question | agent           the question from stdin
  agent [flags]                   a conversation, on a terminal
  agent tools [-v] [-json] [NAME] list the tools, or show one (offline)
  agent call NAME 'JSON'|-        run one tool (offline)
  agent skills [-v] [-json] [NAME] list the skills, or show one (offline)
  agent mcp [-http ADDR]          serve the tools over MCP
  agent log [-n N] [ID]           list the kept conversations, or print one
  agent log rm ID                 delete a kept conversation
  agent config                    the settings and where each came from
  agent version                   the version of the agent
  agent help [TOPIC]              this text, or one topic: chat, tools, call,
                                  skills, mcp, log, config, env, providers, exit

Flags go before or after the command and the question; -- ends them.
Exit status: 0 done, 1 the model or a tool failed, 2 usage or configuration.
Without -provider or LLM_BASE_URL the agent talks to DeepSeek
(` + defaultBaseURL + `, model ` + defaultModel + `) with the key in LLM_API_KEY.
`

var commandHelp = map[string]string{
	"chat": `usage: agent [flags] "question" | agent [flags]

With a question (as arguments, on stdin, or both), asks the model once and
prints the answer on stdout; tool calls are traced on stderr. Without one,
on a terminal, holds a conversation: type a message and Enter; /help there
lists the commands and keys. -continue resumes the last kept conversation.
`,
	"config": `usage: agent config [-profile NAME] [flags]

Shows each setting, its value and where it came from: a flag, the
environment, a profile or the defaults of the config file
($XDG_CONFIG_HOME/toolreg/config.toml, or -config FILE), or the agent's
own default. Keys are never shown, only the variable that holds one.
Flags beat the environment, which beats the profile, which beats the
file's defaults. See docs/config.md for the file.
`,
	"version": `usage: agent version

Prints the version of the agent: its module version, the revision it was
built from and the Go release (also agent -version).
`,
	"tools": `usage: agent tools [-v] [-json] [-tools ids] [-disable ids] [-deny caps] [-mcp NAME=SERVER] [-search QUERY] [NAME]

Lists the tools the model is offered, with the first sentence of each
description; -v adds each tool's id, timeout, capabilities, source file and a
table of its parameters; -json prints the exact spec table sent to the model.
With a NAME, shows that one tool in detail. -search shows what search_tools
answers the model for a query (see -tool-search). Offline: no key needed.
`,
	"call": `usage: agent call [flags] NAME ['JSON' | -]

Runs one tool, as the model would, with JSON arguments ({} when left out; -
reads them from stdin). Prints the tool's answer on stdout and exits 0, or
prints its Error: on stderr and exits 1. Offline: no key needed. Tools that
-tools, -disable or -deny leave out cannot be called.
`,
	"skills": `usage: agent skills [-v] [-json] [NAME]

Lists the skills compiled into the agent (skills/<name>/SKILL.md, checked by
go generate), with the first sentence of each description; -v adds each
skill's source, allowed tools and files; -json prints them as JSON. With a
NAME, shows that skill and its instructions. The model sees the names and
descriptions in the description of the built-in use_skill tool, and loads a
skill's instructions, or one of its files, by calling it; a skill's scripts
are never run. agent mcp serves the skills as MCP prompts. Offline.
`,
	"mcp": `usage: agent mcp [-http ADDR [-token-file FILE]] [-tools ids] [-disable ids] [-deny caps] [-mcp NAME=SERVER] [-net-allow list] [-v]

Serves the selected tools, and the compiled-in skills as prompts, to MCP
clients over stdio, or over streamable HTTP with -http; -v logs calls, panics and timeouts on stderr.
`,
	"log": `usage: agent log [-n N] [ID] | agent log rm ID…

Lists the most recent kept conversations, newest first, numbered from 1:
number, ID, date, model, questions and the first of them. With an ID (or
a prefix of it no other ID has, or a number) prints that conversation;
agent log rm ID removes it. -continue resumes number 1, -continue ID (or
-c ID) the one named.
Conversations are kept as JSON lines in $XDG_STATE_HOME/toolreg/conversations
(~/.local/state/toolreg/conversations); -no-log or TOOLREG_NO_LOG=1 keeps none.
`,
	"help": `usage: agent help [TOPIC]

Prints the help of the agent, or of one topic: chat, tools, call, skills,
mcp, log, config, version, env, providers, exit.
`,
}

const exitHelp = `exit status, the same for every command:
  0  done
  1  the model, its endpoint or a tool failed, or the run was interrupted
  2  usage or configuration: a bad flag or value, a bad config file, no
     key or no model; nothing was asked of the model
`

const envHelp = `environment:
  TOOLREG_CONFIG   the config file (default $XDG_CONFIG_HOME/toolreg/config.toml)
  TOOLREG_PROFILE  the profile of the config file, as -profile
  LLM_API_KEY      the API key, sent as a bearer token (a local server needs none)
  LLM_BASE_URL     the endpoint's API root; default ` + defaultBaseURL + ` (DeepSeek)
  LLM_MODEL        the model; default ` + defaultModel + `; ignored with -provider
  TOOLREG_TOOLS    default of -tools
  TOOLREG_DISABLE  default of -disable
  TOOLREG_DENY     default of -deny
  TOOLREG_TOOL_SEARCH  default of -tool-search; TOOLREG_PIN of -pin
  TOOLREG_IMAGES   default of -images: auto, on or off
  TOOLREG_ISOLATE  default of -isolate
  TOOLREG_WORKERS  default of -workers: the most tool worker processes alive at once
  TOOLREG_WORKER_MEMORY  default of -worker-memory: a worker's memory limit
  TOOLREG_REQUIRE_SANDBOX=1  refuse tools whose restrictions this kernel cannot enforce
  TOOLREG_NO_LOG   when set, as -no-log: keep no conversations
  XDG_STATE_HOME   where the line history, the conversations and the OAuth
                   tokens of -mcp servers are kept: $XDG_STATE_HOME/toolreg,
                   default ~/.local/state/toolreg
  TOOLREG_STYLE    the style of rendered answers: dark (default), light or plain
                   (GLAMOUR_STYLE is read too; NO_COLOR set means plain)
  TOOLREG_MCP_TOKEN             the bearer token of agent mcp -http
  OTEL_TRACES_EXPORTER          otlp, console or none (default): OpenTelemetry traces
  OTEL_METRICS_EXPORTER         otlp, console or none (default): metrics
  OTEL_EXPORTER_OTLP_ENDPOINT   and the other OTEL_* variables of the exporters
  TOOLREG_OTEL_RECORD_CONTENT   true records tool arguments and results on spans (redacted)
  GOGC                          Go's collector target: agent mcp's is 200 when it is
                                unset; workers get the variable itself, as they do
                                GOMEMLIMIT, GOMAXPROCS and GODEBUG
`

// topicFlags are the flags agent help TOPIC shows, besides the
// command's own: those that matter to the topic (agent -h shows them all).
var topicFlags = map[string][]string{
	"chat":   {"profile", "provider", "base-url", "model", "m", "system", "max-steps", "max-tool-calls", "timeout", "first-byte-timeout", "no-stream", "yes", "raw", "q", "v", "json", "continue", "c", "no-log"},
	"tools":  {"tools", "disable", "deny", "mcp", "mcp-env", "mcp-header", "mcp-oauth", "isolate", "strict", "no-strict", "v", "json"},
	"call":   {"tools", "disable", "deny", "mcp", "mcp-env", "mcp-header", "mcp-oauth", "yes", "isolate", "net-allow", "workdir", "strict", "no-strict"},
	"skills": {"v", "json"},
	"mcp":    {"tools", "disable", "deny", "mcp", "mcp-env", "mcp-header", "mcp-oauth", "isolate", "net-allow", "workdir", "v"},
	"log":    {"json"},
	"config": {"config", "profile", "provider", "base-url", "model", "tools", "disable", "deny", "isolate", "mcp", "mcp-config"},
}

// help writes the help of topic ("" for the agent: everything) to w.
func (c *cli) help(w io.Writer, topic string) {
	switch topic {
	case "env":
		fmt.Fprint(w, envHelp)
		return
	case "providers":
		writeProviders(w)
		return
	case "exit":
		fmt.Fprint(w, exitHelp)
		return
	case "":
		fmt.Fprint(w, usageHead)
	default:
		fmt.Fprint(w, commandHelp[topic])
	}
	command := topic
	if command == "chat" {
		command = ""
	}
	fs, _ := c.newFlags(command)
	if own := commandFlags[command]; len(own) > 0 {
		fmt.Fprintf(w, "\nflags of agent %s:\n", command)
		for _, name := range own {
			writeFlag(w, fs.Lookup(name))
		}
	}
	if topic != "" {
		if names := topicFlags[topic]; len(names) > 0 {
			fmt.Fprintln(w, "\nflags:")
			for _, name := range names {
				writeFlag(w, fs.Lookup(name))
			}
		}
		fmt.Fprintln(w, "\nagent -h lists every flag, the environment and the providers.")
		return
	}
	for _, g := range flagGroups {
		fmt.Fprintf(w, "\n%s:\n", g.name)
		for _, name := range g.flags {
			writeFlag(w, fs.Lookup(name))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, envHelp)
	fmt.Fprintln(w)
	writeProviders(w)
}

// writeFlag writes one flag as flag.PrintDefaults does, without the
// default of -system (a paragraph).
func writeFlag(w io.Writer, f *flag.Flag) {
	arg, usage := flag.UnquoteUsage(f)
	head := "  -" + f.Name
	if arg != "" {
		head += " " + arg
	}
	def := ""
	switch f.DefValue {
	case "", "false", "0", "0s", defaultSystem:
	default:
		def = fmt.Sprintf(" (default %s)", f.DefValue)
	}
	fmt.Fprintf(w, "%s\n    \t%s%s\n", head, strings.ReplaceAll(usage, "\n", "\n    \t"), def)
}

// writeProviders lists the -provider presets.
func writeProviders(w io.Writer) {
	fmt.Fprintln(w, "providers (-provider NAME; -model picks another model):")
	for _, p := range providers {
		model := p.model
		if model == "" {
			model = "(asks the server's /models: its only model, or a list to choose from)"
		}
		name := p.names[0]
		if len(p.names) > 1 {
			name += " (" + strings.Join(p.names[1:], ", ") + ")"
		}
		if p.strict {
			model += "  (strict)"
		}
		if p.images {
			model += "  (images)"
		}
		fmt.Fprintf(w, "  %-20s %s  %s\n", name, p.baseURL, model)
	}
}

// version describes the build: the module version and the VCS revision
// the binary was built from, as the Go toolchain recorded them.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "agent (no build information)"
	}
	return versionOf(bi)
}

// versionOf describes the build bi.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", with local changes"
			}
		}
	}
	out := "agent " + v
	if bi.Main.Path != "" {
		out += " (" + bi.Main.Path + ")"
	}
	if rev != "" {
		out += ", revision " + rev
		if when != "" {
			out += " of " + when
		}
		out += dirty
	}
	return out + ", " + bi.GoVersion
}

// runVersion is agent version.
func (c *cli) runVersion(args []string) int {
	_, pos, code := c.parseFlags("version", args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "agent version: unexpected arguments %q\n", pos)
		return exitUsage
	}
	fmt.Fprintln(c.stdout, version())
	return exitOK
}

// continueFlag is -continue: alone, the last conversation; with a value
// (-continue=ID), the one it names.
type continueFlag struct{ o *options }

func (f *continueFlag) IsBoolFlag() bool { return true }

func (f *continueFlag) String() string {
	if f == nil || f.o == nil || !f.o.resume {
		return "false"
	}
	return cmp.Or(f.o.resumeID, "true")
}

func (f *continueFlag) Set(v string) error {
	switch v {
	case "true":
		f.o.resume, f.o.resumeID = true, ""
	case "false":
		f.o.resume, f.o.resumeID = false, ""
	default:
		if !conversationIDRE().MatchString(v) {
			return fmt.Errorf("want a conversation ID or number as agent log lists them")
		}
		f.o.resume, f.o.resumeID = true, v
	}
	return nil
}

// conversationIDRE matches what names a kept conversation: its number in
// agent log's list, or (a prefix of) its ID.
var conversationIDRE = lazyRE(`^[0-9][0-9.\-]*$`)

// joinContinue makes "-continue ID" and "-c ID" one argument,
// "-continue=ID", when ID names a conversation: a boolean flag takes no
// value after a space.
func joinContinue(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		switch a {
		case "-continue", "--continue", "-c", "--c":
			if i+1 < len(args) && conversationIDRE().MatchString(args[i+1]) {
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}
