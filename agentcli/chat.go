package agentcli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"

	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/internal/termmd"
)

// The defaults of the connection, as in the design notes: DeepSeek.
const (
	defaultBaseURL = "https://api.deepseek.com/v1"
	defaultModel   = "deepseek-chat"
	defaultSystem  = "You are a helpful assistant. You may call the tools you are given when they help: " +
		"prefer a tool's answer to a guess for anything current, measured or computed, and say which tool an answer came from when it matters. " +
		"If a tool answers with an Error, read it, correct the call or explain the problem."
)

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
	_, ok := terminalFile(r)
	return ok
}

// refuseUnattended is the answer of a run with nobody to ask.
func refuseUnattended(ctx context.Context, e registry.Entry, args string) error {
	return fmt.Errorf("it can change things on this machine (%s), and this run has nobody to ask; the user can allow such tools with -yes, or run the agent on a terminal, where it asks", e.Capabilities|e.Reaches)
}

// output prints a conversation for a person: the model's text on stdout as
// it streams, rendered as Markdown block by block when md is set, and a
// one-line trace of each tool call on stderr, with a waiting indicator
// there until the model's answer begins when spin is set.
type output struct {
	stdout, stderr io.Writer
	quiet          bool
	md             *termmd.Renderer
	// terminal: stdout is a terminal, which an answer printed without
	// md (-raw) reaches too: its control characters are dropped.
	terminal bool
	spin     bool
	// redact removes secrets from the answer before it is printed; the
	// answer is printed whole lines at a time, so that a secret split
	// across streamed pieces is seen whole.
	redact func(string) string
	// line is the plain text of a line not yet printed, and shown, by
	// call id, when the call's progress was last shown; both under mu.
	line  strings.Builder
	shown map[string]time.Time

	mu       sync.Mutex
	printed  bool            // text of the current turn went to stdout
	midLine  bool            // the last text did not end a line
	pending  strings.Builder // text not yet rendered
	blocks   blockScan       // where pending's whole blocks end
	rendered bool            // a block of the current answer was rendered
	spinning *spinner        // the waiting indicator, while it runs
	asking   bool            // a question is asked: no indicator
	held     strings.Builder // trace lines held while a question is asked
	drawn    bool            // the indicator is on the screen
	label    string          // what the indicator says the agent waits for
}

func (o *output) event(e chat.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e.Type == chat.EventReasoning {
		o.label = "thinking"
		return
	}
	if e.Type == chat.EventUsage {
		return
	}
	o.stopWaitingLocked()
	switch e.Type {
	case chat.EventText:
		if e.Text == "" {
			return
		}
		o.printed = true
		if o.md != nil {
			o.pending.WriteString(e.Text)
			if n := o.blocks.scan(o.pending.String()); n > 0 {
				text := o.pending.String()
				renderBlocks(o.stdout, o.md, o.clean(text[:n]), !o.rendered)
				o.rendered = true
				o.pending.Reset()
				o.pending.WriteString(text[n:])
				o.blocks.drop(n)
			}
			return
		}
		o.line.WriteString(e.Text)
		// Only the piece is looked at for a line's end: the line before
		// it has none, and looking at it all again for each piece would
		// cost the square of a long line.
		if text := o.line.String(); strings.Contains(e.Text, "\n") {
			i := strings.LastIndexByte(text, '\n') + 1
			fmt.Fprint(o.stdout, o.clean(text[:i]))
			o.midLine = false
			o.line.Reset()
			o.line.WriteString(text[i:])
		}
	case chat.EventToolCall:
		o.flushLocked()
		if !o.quiet {
			o.lineBreak()
			o.tracef("→ %s %s\n", toolLabel(e.Tool), clip.Line(e.Args, 120))
		}
	case chat.EventToolResult:
		o.label = "waiting for the model"
		defer o.waitLocked()
		if o.quiet {
			return
		}
		o.lineBreak()
		if e.Error != "" || strings.HasPrefix(e.Result, "Error:") {
			o.tracef("✗ %s %s (%s)\n", toolLabel(e.Tool), clip.Line(e.Result, 160), short(e.Duration))
			return
		}
		o.tracef("← %s: %s (%s)\n", toolLabel(e.Tool), clip.Line(e.Result, 120), short(e.Duration))
	case chat.EventRetry:
		if !o.quiet {
			o.lineBreak()
			o.tracef("↻ retry %d in %s: %s\n", e.Attempt, short(e.Duration), clip.Line(e.Error, 160))
		}
		defer o.waitLocked()
	}
}

// turnError returns the error of a turn to be shown on the terminal,
// without control characters: it quotes the endpoint's message, which
// may quote what the model sent (a tool call's name, its arguments).
func turnError(err error) string { return clip.Printable(err.Error()) }

// tracef prints a line of the trace on stderr, with o.mu held; while a
// question is asked it is held back until the answer, so that nothing a
// tool sent is written after the question on its line.
func (o *output) tracef(format string, args ...any) {
	if o.asking {
		fmt.Fprintf(&o.held, format, args...)
		return
	}
	fmt.Fprintf(o.stderr, format, args...)
}

// maxLabel bounds the name of a tool shown on the trace: a valid name
// has at most 64 characters.
const maxLabel = 80

// toolLabel returns the name of a tool the model called, to be shown on
// one line: the model sends any text as the name, not only one of the
// tools offered, and it must not drive the terminal nor forge lines.
func toolLabel(name string) string { return clip.Line(name, maxLabel) }

// progressEvery is how often the progress of one call is shown at most;
// its end is always shown.
const progressEvery = 500 * time.Millisecond

// progress shows the progress of a tool call on the trace, at most every
// progressEvery for one call.
func (o *output) progress(ctx context.Context, done, total float64, message string) {
	if o.quiet {
		return
	}
	call, _ := tool.CallFrom(ctx)
	o.mu.Lock()
	defer o.mu.Unlock()
	now := time.Now()
	if o.shown == nil {
		o.shown = map[string]time.Time{}
	}
	if last, ok := o.shown[call.ID]; ok && now.Sub(last) < progressEvery && (total <= 0 || done < total) {
		return
	}
	o.shown[call.ID] = now
	o.stopWaitingLocked()
	o.flushLocked()
	o.lineBreak()
	amount := strconv.FormatFloat(done, 'f', -1, 64)
	if total > 0 {
		amount += "/" + strconv.FormatFloat(total, 'f', -1, 64)
	}
	if message != "" {
		amount += " " + clip.Line(o.clean(message), 120)
	}
	o.tracef("… %s %s\n", toolLabel(call.Tool), amount)
}

// clean returns text with the secrets removed, and for a terminal without
// a renderer (which drops them itself) the control characters too.
func (o *output) clean(text string) string {
	if o.redact != nil {
		text = o.redact(text)
	}
	if o.terminal && o.md == nil {
		text = termmd.Sanitize(text)
	}
	return text
}

// flushLocked prints or renders the text not yet printed, whole or not:
// the answer ended, or tool calls follow it.
func (o *output) flushLocked() {
	if o.line.Len() > 0 {
		fmt.Fprint(o.stdout, o.clean(o.line.String()))
		o.midLine = true
		o.line.Reset()
	}
	if o.md == nil || o.pending.Len() == 0 {
		return
	}
	renderBlocks(o.stdout, o.md, o.clean(o.pending.String()), !o.rendered)
	o.rendered = true
	o.pending.Reset()
	o.blocks = blockScan{}
}

// lineBreak ends a line of streamed text before a trace line is printed,
// when stdout and stderr are the same terminal.
func (o *output) lineBreak() {
	if o.midLine {
		fmt.Fprintln(o.stdout)
		o.midLine = false
	}
}

// endLine ends the output of a turn that failed: what was streamed stays.
func (o *output) endLine() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopWaitingLocked()
	o.flushLocked()
	o.lineBreak()
	o.printed, o.rendered = false, false
}

// finish prints the answer if it was not streamed, and ends its line.
func (o *output) finish(answer string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopWaitingLocked()
	switch {
	case o.printed:
		o.flushLocked()
	case o.md != nil:
		renderBlocks(o.stdout, o.md, o.clean(answer), true)
	default:
		fmt.Fprint(o.stdout, o.clean(answer))
		o.midLine = !strings.HasSuffix(answer, "\n")
	}
	o.lineBreak()
	o.printed, o.rendered = false, false
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

// maxPiped bounds the text piped to the agent.
const maxPiped = 1 << 20

// resolve fills in the endpoint and model: flags beat -provider, which
// beats the environment, which beats the defaults. The default model goes
// with the default endpoint only; another endpoint needs a model named, or
// a local server is asked for its own (see askModel).
func (c *cli) resolve(o *options) error {
	if o.provider != "" {
		p, ok := preset(o.provider)
		if !ok {
			return fmt.Errorf("unknown provider %q; known: %s", o.provider, providerNames())
		}
		o.baseURL = cmp.Or(o.baseURL, p.baseURL)
		o.model = cmp.Or(o.model, p.model)
	} else {
		o.baseURL = cmp.Or(o.baseURL, c.getenv("LLM_BASE_URL"), defaultBaseURL)
		o.model = cmp.Or(o.model, c.getenv("LLM_MODEL"))
		if o.baseURL == defaultBaseURL {
			o.model = cmp.Or(o.model, defaultModel)
		}
	}
	if err := checkBaseURL(o.baseURL); err != nil {
		return err
	}
	strict, err := strictFor(o.strictOn, o.strictOff, o.baseURL)
	if err != nil {
		return err
	}
	o.strict = strict
	if o.model == "" && !isLocal(o.baseURL) {
		return fmt.Errorf("no model for %s: name one with -model or LLM_MODEL", redact.String(o.baseURL))
	}
	return nil
}

// runChat is the agent proper: one question, or a conversation.
func (c *cli) runChat(ctx context.Context, args []string) int {
	o, pos, code := c.parseFlags("", args)
	if code >= 0 {
		return code
	}
	if o.version {
		fmt.Fprintln(c.stdout, version())
		return 0
	}
	if err := c.resolve(o); err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	if o.apiKey == "" && !isLocal(o.baseURL) {
		fmt.Fprintf(c.stderr, "agent: no API key for %s: set %s (or point LLM_BASE_URL at a local server such as Ollama, which needs none).\n"+
			"agent tools and agent call work without a key.\n", redact.String(o.baseURL), cmp.Or(o.keyEnv, "LLM_API_KEY"))
		return 2
	}
	ctx, err := o.sel.withPolicy(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	firstByte := o.firstByte
	if o.noStream {
		firstByte = 0 // the whole answer comes at once: it may take long
	}
	hc := newHTTPClient(firstByte)
	if o.model == "" {
		if o.model, err = askModel(ctx, newHTTPClient(o.firstByte), o.baseURL, o.apiKey); err != nil {
			// The server's answer is a matter of configuration; no
			// answer at all is a failure of the endpoint, as a turn's.
			fmt.Fprintf(c.stderr, "agent: %v\n", err)
			return exitCode(err)
		}
	}
	logger := slog.New(slog.DiscardHandler)
	if o.verbose {
		logger = slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}

	prompt := strings.Join(pos, " ")
	stdinTerm := isTerminal(c.stdin)
	interactive := prompt == "" && stdinTerm
	if !stdinTerm {
		piped, err := io.ReadAll(io.LimitReader(c.stdin, maxPiped+1))
		if err != nil {
			fmt.Fprintf(c.stderr, "agent: read stdin: %v\n", err)
			return 1
		}
		if len(piped) > maxPiped {
			fmt.Fprintf(c.stderr, "agent: the text on stdin is over %d bytes, the most the agent sends to the model: cut it first (head -c %d), or ask about it in parts\n", maxPiped, maxPiped)
			return 2
		}
		text := strings.TrimSpace(string(piped))
		switch {
		case prompt == "" && text == "":
			fmt.Fprintln(c.stderr, "agent: no question: give one as an argument or on stdin")
			return 2
		case prompt == "":
			prompt = text
		case text != "":
			prompt += "\n\n" + text
		}
	}

	tel, flush, err := c.startTelemetry(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer flush()
	o.sel.telemetry = tel
	// A conversation at a terminal starts its tools' workers ahead, while
	// the person types: its first calls do not wait for a start.
	o.sel.warm = interactive
	reg, closeTools, err := o.sel.toolSet(ctx, c.stderr, logger)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	o.sel.startWarmUp()
	out := &output{stdout: c.stdout, stderr: c.stderr, quiet: o.quiet, redact: redactor(c.getenv, c.tools, c.learnt)}
	if f, ok := terminalFile(c.stdout); ok && !o.asJSON {
		out.terminal = true
		if !o.raw {
			if out.md, err = newMarkdown(f, c.getenv); err != nil {
				fmt.Fprintf(c.stderr, "agent: %v\n", err)
			}
		}
	}
	if _, ok := terminalFile(c.rawStderr); ok && !o.asJSON {
		out.spin = true
	}
	var in lineReader
	var confirm registry.Confirm
	switch {
	case interactive:
		in = c.lineReader()
		if !o.yes {
			confirm = c.askUser(in, out)
		}
	case !o.yes:
		confirm = refuseUnattended
	}
	// The same for the tool set a mounted server's change makes.
	derive := func(r *registry.Registry) *registry.Registry { return r.WithStrict(o.strict).WithConfirm(confirm) }
	reg = derive(reg)
	offered, err := o.offeredLive(reg, derive, c.stderr)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	conv := &chat.Conversation{
		Client: &chat.Client{
			BaseURL:    o.baseURL,
			APIKey:     o.apiKey,
			Model:      o.model,
			NoStream:   o.noStream,
			HTTPClient: hc,
			Retry:      c.retry,
			Logger:     logger,
		},
		Tools:        offered,
		Images:       imagesFor(o.images, o.baseURL),
		System:       o.system,
		MaxSteps:     o.maxSteps,
		MaxToolCalls: o.maxToolCalls,
		Session:      fmt.Sprintf("agent-%d", os.Getpid()),
		Telemetry:    tel,
		Provider:     genAIProvider(o.baseURL),
	}
	if o.asJSON {
		conv.Sink = chat.JSONLines(c.learnt.Writer(c.stdout, secrets(c.getenv, c.tools)...))
	} else {
		conv.Sink = out.event
	}
	defer logUsage(ctx, logger, conv)
	s := &session{conv: conv, out: out, tools: reg.Names(), describe: func(name string) (string, bool) {
		e, ok := reg.Lookup(name)
		return firstLine(e.Description), ok
	}, models: sortedKeys(o.aliases), resolveModel: func(name string) string {
		return cmp.Or(o.aliases[name], name)
	}}
	if stdin, ok := terminalFile(c.stdin); ok && interactive {
		if tty, ok := terminalFile(c.rawStderr); ok {
			s.clipboard = tty
			s.editor = runEditor(c.getenv, stdin, tty, tty)
		}
	}
	if code := c.keep(o, s); code >= 0 {
		return code
	}
	// Tools' progress (tool.Progress, a mounted server's notifications)
	// is shown on the trace.
	ctx = tool.WithProgress(ctx, out.progress)
	if interactive {
		return c.repl(ctx, s, in)
	}

	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, o.timeout, fmt.Errorf("the run took longer than -timeout %s", o.timeout))
		defer cancel()
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	answer, err := s.ask(ctx, prompt)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			err = cause
		}
		out.endLine()
		fmt.Fprintf(c.stderr, "agent: %s%s\n", turnError(err), hint(err))
		return 1
	}
	if !o.asJSON {
		out.finish(answer)
	}
	return 0
}

// keep sets up the keeping of the conversation: -continue restores the
// last one, and the turns are kept unless -no-log. It returns the exit
// status to end with, or -1 to go on.
func (c *cli) keep(o *options, s *session) int {
	if o.noLog && !o.resume {
		return -1
	}
	warn := func(err error) { fmt.Fprintf(c.stderr, "agent: %v\n", err) }
	dir, err := c.conversationsDir()
	if err != nil {
		if o.resume {
			fmt.Fprintf(c.stderr, "agent: -continue: %v\n", err)
			return 2
		}
		warn(fmt.Errorf("not keeping the conversation: %w", err))
		return -1
	}
	if !o.noLog {
		s.log = &convLog{dir: dir, model: o.model, baseURL: o.baseURL, warn: warn, now: time.Now, redact: redactor(c.getenv, c.tools, c.learnt)}
	}
	if !o.resume {
		return -1
	}
	files, err := keptFiles(dir)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: -continue: %v\n", err)
		return 1
	}
	if len(files) == 0 {
		fmt.Fprintf(c.stderr, "agent: -continue: no conversation kept in %s\n", dir)
		return exitUsage
	}
	f := files[0]
	if o.resumeID != "" {
		if f, err = findKept(files, o.resumeID); err != nil {
			fmt.Fprintf(c.stderr, "agent: -continue: %v\n", err)
			return exitUsage
		}
	}
	k, err := readKept(f.path)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: -continue: %v\n", err)
		return 1
	}
	s.conv.Restore(k.messages())
	if s.log != nil {
		s.log.path = k.path
	}
	return -1
}

// lineReader returns the reader of the lines typed in a conversation:
// with line editing and history when stdin and stderr are a terminal.
func (c *cli) lineReader() lineReader {
	stdin, ok1 := terminalFile(c.stdin)
	stderr, ok2 := terminalFile(c.rawStderr)
	if !ok1 || !ok2 {
		return c.pipeLines()
	}
	warn := func(err error) { fmt.Fprintf(c.stderr, "agent: %v\n", err) }
	path := ""
	if dir, err := c.stateDir(); err == nil {
		path = filepath.Join(dir, "history")
	} else {
		warn(fmt.Errorf("line history: %w", err))
	}
	return newTermLines(stdin, stderr, path, warn)
}

// questionOut returns where questions are asked: stderr as it was given,
// not through the redactor run puts in front of it. A question takes out
// of what it shows the secrets the agent knows (redact.Known), and no
// more: the redactor would also take out what looks like a credential (a
// URL's user information, key=value), which can hold any text, such as a
// command's tail, that must be seen to be allowed.
func (c *cli) questionOut() io.Writer {
	if c.rawStderr != nil {
		return c.rawStderr
	}
	return c.stderr
}

// maxArgsShown bounds the arguments shown whole before a question whose
// line cuts them; past it they are cut with "…", which says so.
const maxArgsShown = 64 << 10

// maxBlankShown is the longest run of blank characters shown as it is in
// arguments shown whole; a longer one is shown as its count.
const maxBlankShown = 16

// unpadded returns arguments to be shown whole with nothing that only
// takes room on the screen: JSON white space left out, and each run of
// more than maxBlankShown blank characters (white space, or characters
// drawn blank such as U+2800) shown as their count, "⟨20000 blank⟩". A
// model could otherwise follow what matters (the path of a write, a
// command's tail) with thousands of blank lines, and the person would see
// a screen of nothing above the question.
func unpadded(args string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(args)) == nil {
		args = b.String()
	}
	var out strings.Builder
	from, run := 0, 0 // where the run of blanks began, and its length
	end := func(at int) {
		if run > maxBlankShown {
			fmt.Fprintf(&out, "⟨%d blank⟩", run)
		} else {
			out.WriteString(args[from:at])
		}
		run = 0
	}
	for i, r := range args {
		if blank(r) {
			if run == 0 {
				from = i
			}
			run++
			continue
		}
		if run > 0 {
			end(i)
		}
		out.WriteRune(r)
	}
	if run > 0 {
		end(len(args))
	}
	return out.String()
}

// blank reports whether r takes room on a terminal without showing
// anything: white space, and the letters and symbols drawn blank (the
// Braille blank, the Hangul fillers).
func blank(r rune) bool {
	switch r {
	case '\u2800', '\u115f', '\u1160', '\u3164', '\uffa0':
		return true
	}
	return unicode.IsSpace(r)
}

// askUser returns a Confirm that asks on the terminal, one question at a
// time, before a tool that changes things runs. Arguments that the
// question's line would cut are shown whole before it; the secrets the
// agent knows are taken out of them, but not what merely looks like one.
// While it asks, out (nil for none) draws no waiting indicator, which
// would write over the question's last line.
func (c *cli) askUser(in lineReader, out *output) registry.Confirm {
	var mu sync.Mutex
	return func(ctx context.Context, e registry.Entry, args string) error {
		mu.Lock()
		defer mu.Unlock()
		defer out.holdWaiting()()
		// Only the secrets known are taken out: a credential's shape
		// (a URL's user information, key=value) can hold any text, which
		// must be seen to be allowed.
		shown := redact.Known(args, slices.Concat(secrets(c.getenv, c.tools), c.learnt.Values())...)
		line := clip.Line(shown, 200)
		if line != clip.Line(shown, len(shown)) {
			// Cut in the question: shown whole before it, so that no
			// part of what is allowed goes unseen.
			whole := clip.String(clip.Printable(unpadded(shown)), maxArgsShown)
			fmt.Fprintf(c.questionOut(), "? the arguments of %s, %d bytes:\n    %s\n", e.Name, len(args), strings.ReplaceAll(whole, "\n", "\n    "))
		}
		l, err := in.readLine(ctx, fmt.Sprintf("? %s can change things on this machine (%s). Run it with %s? [y/N] ", e.Name, e.Capabilities|e.Reaches, line), true)
		if a := strings.ToLower(strings.TrimSpace(l)); err == nil && (a == "y" || a == "yes") {
			return nil
		}
		return errors.New("the user did not allow it")
	}
}
