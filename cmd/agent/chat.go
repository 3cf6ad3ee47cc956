package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/registry"

	"github.com/toolreg/toolreg/internal/clip"
)

// The defaults of the connection, as in the design notes: DeepSeek.
const (
	defaultBaseURL = "https://api.deepseek.com/v1"
	defaultModel   = "deepseek-chat"
	defaultSystem  = "You are a helpful assistant. You may call the tools you are given when they help: " +
		"prefer a tool's answer to a guess for anything current, measured or computed, and say which tool an answer came from when it matters. " +
		"If a tool answers with an Error, read it, correct the call or explain the problem."
)

// provider is a preset of a base URL and a default model.
type provider struct {
	baseURL, model string
}

// preset returns the preset of -provider name, under any name it goes by.
// Model names change often: -model or LLM_MODEL picks another.
func preset(name string) (provider, bool) {
	switch strings.ToLower(name) {
	case "deepseek":
		return provider{baseURL: "https://api.deepseek.com/v1", model: "deepseek-chat"}, true
	case "moonshot", "kimi":
		return provider{baseURL: "https://api.moonshot.cn/v1", model: "kimi-k2.6"}, true
	case "zhipu", "glm":
		return provider{baseURL: "https://open.bigmodel.cn/api/paas/v4", model: "glm-4.6"}, true
	case "qwen", "dashscope":
		return provider{baseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", model: "qwen-plus"}, true
	case "openai":
		return provider{baseURL: "https://api.openai.com/v1", model: "gpt-4.1-mini"}, true
	case "ollama":
		return provider{baseURL: "http://localhost:11434/v1", model: "qwen3"}, true
	case "vllm":
		return provider{baseURL: "http://localhost:8000/v1"}, true
	}
	return provider{}, false
}

func providerNames() string {
	return "deepseek, moonshot (kimi), zhipu (glm), qwen (dashscope), openai, ollama, vllm"
}

// chatConfig is the configuration of a chat run, from flags and the
// environment.
type chatConfig struct {
	provider, baseURL, model, apiKey string
	system                           string
	maxSteps, maxToolCalls           int
	timeout                          time.Duration
	noStream, quiet, verbose, asJSON bool
	// yes allows tools that change things without asking.
	yes bool
	sel selection
}

func (c *cli) parseChat(args []string) (*chatConfig, []string, error) {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	cfg := &chatConfig{apiKey: c.getenv("LLM_API_KEY")}
	fs.StringVar(&cfg.provider, "provider", "", "a preset of base URL and model: "+providerNames())
	fs.StringVar(&cfg.baseURL, "base-url", "", "the endpoint's API root (env LLM_BASE_URL; default "+defaultBaseURL+")")
	fs.StringVar(&cfg.model, "model", "", "the model (env LLM_MODEL; default "+defaultModel+")")
	fs.StringVar(&cfg.system, "system", defaultSystem, "the system prompt")
	fs.IntVar(&cfg.maxSteps, "max-steps", chat.DefaultMaxSteps, "the most model requests in one turn")
	fs.IntVar(&cfg.maxToolCalls, "max-tool-calls", chat.DefaultMaxToolCalls, "the most tool calls run in one turn")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Minute, "the longest a one-shot run may take (0: no limit)")
	fs.BoolVar(&cfg.noStream, "no-stream", false, "ask for whole answers, for endpoints that cannot stream")
	fs.BoolVar(&cfg.quiet, "q", false, "no trace of tool calls on stderr")
	fs.BoolVar(&cfg.verbose, "v", false, "log requests, timings and token usage on stderr")
	fs.BoolVar(&cfg.asJSON, "json", false, "print one JSON event per line on stdout, for scripts")
	fs.BoolVar(&cfg.yes, "yes", false, "let tools that run programs or write files run without asking")
	cfg.sel.register(fs, c.getenv)
	cfg.sel.registerMounts(fs)
	fs.Usage = func() {
		fmt.Fprint(c.stderr, `usage:
  agent [flags] "question"    one question; the answer on stdout
  echo question | agent        the question from stdin
  agent [flags]                a conversation, on a terminal
  agent tools [-json] [-v]     list the tools (offline)
  agent call NAME 'JSON'|-     run one tool (offline)
  agent mcp [-http ADDR]       serve the tools over MCP (stdio, or streamable HTTP)

flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	var p provider
	if cfg.provider != "" {
		var ok bool
		if p, ok = preset(cfg.provider); !ok {
			return nil, nil, fmt.Errorf("unknown provider %q; known: %s", cfg.provider, providerNames())
		}
	}
	// Flags beat -provider, which beats the environment, which beats the
	// defaults.
	cfg.baseURL = firstOf(cfg.baseURL, p.baseURL, c.getenv("LLM_BASE_URL"), defaultBaseURL)
	if cfg.provider != "" {
		cfg.model = firstOf(cfg.model, p.model)
	}
	cfg.model = firstOf(cfg.model, c.getenv("LLM_MODEL"), defaultModel)
	if cfg.model == "" {
		return nil, nil, errors.New("no model: set LLM_MODEL or -model to the name the server knows the model by")
	}
	if _, err := url.Parse(cfg.baseURL); err != nil {
		// url.Error repeats the URL, credentials and all.
		return nil, nil, fmt.Errorf("base URL: %w", redact.Error(err))
	}
	return cfg, fs.Args(), nil
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// isLocal reports whether the endpoint runs on this machine, where servers
// such as Ollama and vLLM need no key.
func isLocal(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// runChat is the agent proper: one question, or a conversation.
func (c *cli) runChat(ctx context.Context, args []string) int {
	cfg, rest, err := c.parseChat(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	if cfg.apiKey == "" && !isLocal(cfg.baseURL) {
		fmt.Fprintf(c.stderr, "agent: no API key for %s: set LLM_API_KEY (or point LLM_BASE_URL at a local server such as Ollama, which needs none).\n"+
			"agent tools and agent call work without a key.\n", redact.String(cfg.baseURL))
		return 2
	}
	ctx, err = cfg.sel.withPolicy(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	logger := slog.New(slog.DiscardHandler)
	if cfg.verbose {
		logger = slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	prompt := strings.Join(rest, " ")
	interactive := prompt == "" && isTerminal(c.stdin)
	reg, closeTools, err := cfg.sel.toolSet(ctx, c.stderr, logger)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	var lines <-chan string
	switch {
	case cfg.yes:
	case interactive:
		lines = c.readLines()
		reg = reg.WithConfirm(c.askUser(lines))
	default:
		reg = reg.WithConfirm(refuseUnattended)
	}
	conv := &chat.Conversation{
		Client: &chat.Client{
			BaseURL:  cfg.baseURL,
			APIKey:   cfg.apiKey,
			Model:    cfg.model,
			NoStream: cfg.noStream,
			Logger:   logger,
		},
		Tools:        reg,
		System:       cfg.system,
		MaxSteps:     cfg.maxSteps,
		MaxToolCalls: cfg.maxToolCalls,
		Session:      fmt.Sprintf("agent-%d", os.Getpid()),
	}
	out := &output{stdout: c.stdout, stderr: c.stderr, quiet: cfg.quiet}
	if cfg.asJSON {
		conv.Sink = chat.JSONLines(redact.Writer(c.stdout, secrets(c.getenv)...))
	} else {
		conv.Sink = out.event
	}

	defer logUsage(ctx, logger, conv)

	switch {
	case prompt != "":
	case !interactive:
		b, err := io.ReadAll(c.stdin)
		if err != nil {
			fmt.Fprintf(c.stderr, "agent: read the question from stdin: %v\n", err)
			return 1
		}
		prompt = strings.TrimSpace(string(b))
		if prompt == "" {
			fmt.Fprintln(c.stderr, "agent: no question: give one as an argument or on stdin")
			return 2
		}
	default:
		return c.repl(ctx, conv, reg.Names(), out, lines)
	}
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, cfg.timeout, fmt.Errorf("the run took longer than -timeout %s", cfg.timeout))
		defer cancel()
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	answer, err := conv.Turn(ctx, prompt)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			err = cause
		}
		fmt.Fprintf(c.stderr, "agent: %v%s\n", err, hint(err))
		return 1
	}
	if !cfg.asJSON {
		out.finish(answer)
	}
	return 0
}

// hint says which of the agent's settings to change for a failed turn: a
// bound that ended it, or the likely cause of the endpoint's error.
func hint(err error) string {
	if errors.Is(err, chat.ErrMaxSteps) {
		return "; raise the bound with -max-steps"
	}
	var ae *chat.APIError
	if !errors.As(err, &ae) {
		return ""
	}
	switch ae.Cause {
	case chat.CauseNotJSON:
		return "; check LLM_BASE_URL (or -base-url, -provider)"
	case chat.CauseKeyRefused:
		return "; check LLM_API_KEY"
	case chat.CauseNoKey:
		return "; set LLM_API_KEY"
	case chat.CauseAccessDenied:
		return "; check that the key in LLM_API_KEY may use the model, or pick another with LLM_MODEL (or -model)"
	case chat.CauseUnknownModel:
		return "; check LLM_MODEL (or -model) and LLM_BASE_URL (or -base-url, -provider)"
	case chat.CauseToolsUnsupported:
		return "; pick a model with tool calling with LLM_MODEL (or -model)"
	}
	return ""
}

// logUsage logs the token usage of the whole run (with -v).
func logUsage(ctx context.Context, logger *slog.Logger, conv *chat.Conversation) {
	u := conv.Usage()
	if u.TotalTokens == 0 && u.PromptTokens == 0 && u.CompletionTokens == 0 {
		return
	}
	logger.InfoContext(ctx, "token usage of the run",
		"prompt_tokens", u.PromptTokens, "completion_tokens", u.CompletionTokens, "total_tokens", u.TotalTokens)
}

// interruptible returns a context that Ctrl-C cancels.
func (c *cli) interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		select {
		case <-c.interrupts: // nil in tests: never
			cancel(errors.New("interrupted"))
		case <-done:
		}
	}()
	return ctx, func() { close(done); cancel(nil) }
}

// isTerminal reports whether r is a terminal, where the agent holds a
// conversation instead of reading one question.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// refuseUnattended is the answer of a run with nobody to ask.
func refuseUnattended(ctx context.Context, e registry.Entry, args string) error {
	return fmt.Errorf("it can change things on this machine (%s), and this run has nobody to ask; the user can allow such tools with -yes, or run the agent on a terminal, where it asks", e.Capabilities|e.Reaches)
}

// readLines reads stdin line by line, for the conversation and the
// questions the agent asks.
func (c *cli) readLines() <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(c.stdin)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines
}

// askUser returns a Confirm that asks on the terminal, one question at a
// time, before a tool that changes things runs.
func (c *cli) askUser(lines <-chan string) registry.Confirm {
	var mu sync.Mutex
	return func(ctx context.Context, e registry.Entry, args string) error {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(c.stderr, "? %s can change things on this machine (%s). Run it with %s? [y/N] ", e.Name, e.Capabilities|e.Reaches, clip.Line(args, 200))
		select {
		case l, ok := <-lines:
			if a := strings.ToLower(strings.TrimSpace(l)); ok && (a == "y" || a == "yes") {
				return nil
			}
		case <-ctx.Done():
			fmt.Fprintln(c.stderr)
		}
		return errors.New("the user did not allow it")
	}
}

// repl holds a conversation on a terminal. Ctrl-C interrupts the turn in
// flight and keeps the conversation; Ctrl-C at the prompt, Ctrl-D or /exit
// ends it. lines holds the lines the user types.
func (c *cli) repl(ctx context.Context, conv *chat.Conversation, tools []string, out *output, lines <-chan string) int {
	fmt.Fprintf(c.stderr, "toolreg agent, %d tools. /tools lists them, /reset starts over, /exit or Ctrl-D ends.\n", len(tools))
	if lines == nil {
		lines = c.readLines()
	}
	for {
		fmt.Fprint(c.stderr, "> ")
		var line string
		select {
		case l, ok := <-lines:
			if !ok {
				fmt.Fprintln(c.stderr)
				return 0
			}
			line = strings.TrimSpace(l)
		case <-c.interrupts:
			fmt.Fprintln(c.stderr)
			return 0
		case <-ctx.Done():
			return 1
		}
		switch line {
		case "":
			continue
		case "/exit", "/quit":
			return 0
		case "/reset":
			conv.Reset()
			fmt.Fprintln(c.stderr, "(conversation cleared)")
			continue
		case "/tools":
			fmt.Fprintln(c.stderr, strings.Join(tools, ", "))
			continue
		}
		turnCtx, stop := c.interruptible(ctx)
		answer, err := conv.Turn(turnCtx, line)
		interrupted := turnCtx.Err() != nil && ctx.Err() == nil
		stop()
		switch {
		case interrupted:
			out.endLine()
			fmt.Fprintln(c.stderr, "(interrupted; the conversation is kept: ask again, or Ctrl-C again to exit)")
		case err != nil:
			out.endLine()
			fmt.Fprintf(c.stderr, "agent: %v%s\n(the conversation is kept: ask again to retry)\n", err, hint(err))
		default:
			out.finish(answer)
		}
	}
}

// output prints a conversation for a person: the model's text on stdout as
// it streams, and a one-line trace of each tool call on stderr.
type output struct {
	stdout, stderr io.Writer
	quiet          bool

	mu      sync.Mutex
	printed bool // text of the current turn went to stdout
	midLine bool // the last text did not end a line
}

func (o *output) event(e chat.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch e.Type {
	case chat.EventText:
		if e.Text != "" {
			fmt.Fprint(o.stdout, e.Text)
			o.printed = true
			o.midLine = !strings.HasSuffix(e.Text, "\n")
		}
	case chat.EventToolCall:
		if !o.quiet {
			o.lineBreak()
			fmt.Fprintf(o.stderr, "→ %s %s\n", e.Tool, clip.Line(e.Args, 120))
		}
	case chat.EventToolResult:
		if o.quiet {
			return
		}
		o.lineBreak()
		if e.Error != "" || strings.HasPrefix(e.Result, "Error:") {
			fmt.Fprintf(o.stderr, "✗ %s %s (%s)\n", e.Tool, clip.Line(e.Result, 160), short(e.Duration))
			return
		}
		fmt.Fprintf(o.stderr, "← %s (%s)\n", clip.Line(e.Result, 120), short(e.Duration))
	case chat.EventRetry:
		if !o.quiet {
			o.lineBreak()
			fmt.Fprintf(o.stderr, "↻ retry %d in %s: %s\n", e.Attempt, short(e.Duration), clip.Line(e.Error, 160))
		}
	}
}

// lineBreak ends a line of streamed text before a trace line is printed,
// when stdout and stderr are the same terminal.
func (o *output) lineBreak() {
	if o.midLine {
		fmt.Fprintln(o.stdout)
		o.midLine = false
	}
}

func (o *output) endLine() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lineBreak()
	o.printed = false
}

// finish prints the answer if it was not streamed, and ends its line.
func (o *output) finish(answer string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.printed {
		fmt.Fprint(o.stdout, answer)
		o.midLine = !strings.HasSuffix(answer, "\n")
	}
	o.lineBreak()
	o.printed = false
}

func short(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return d.Round(time.Microsecond).String()
}
