package agentcli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/internal/nearest"

	"github.com/toolreg/toolreg/internal/clip"
)

// lineReader reads the lines the person types.
type lineReader interface {
	// readLine shows prompt and returns the line typed. It returns io.EOF
	// when the person ends the conversation: Ctrl-D, or Ctrl-C at the
	// prompt. A question (a tool asking to run) is kept out of the line
	// history, and Ctrl-C then interrupts the turn instead.
	readLine(ctx context.Context, prompt string, question bool) (string, error)
}

// pipeLines reads lines from stdin when it is not a terminal that can be
// edited on: a pipe, or a terminal whose stderr is redirected.
type pipeLines struct {
	lines      <-chan string
	interrupts <-chan os.Signal
	stderr     io.Writer
}

func (c *cli) pipeLines() *pipeLines {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(c.stdin)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	// The prompts are the agent's own and its questions, which are
	// redacted as they must be (see questionOut).
	return &pipeLines{lines: lines, interrupts: c.interrupts, stderr: c.questionOut()}
}

func (p *pipeLines) readLine(ctx context.Context, prompt string, question bool) (string, error) {
	fmt.Fprint(p.stderr, prompt)
	interrupts := p.interrupts
	if question {
		interrupts = nil // the turn's own watch interrupts it
	}
	select {
	case l, ok := <-p.lines:
		if !ok {
			fmt.Fprintln(p.stderr)
			return "", io.EOF
		}
		return l, nil
	case <-interrupts:
		fmt.Fprintln(p.stderr)
		return "", io.EOF
	case <-ctx.Done():
		fmt.Fprintln(p.stderr)
		return "", context.Cause(ctx)
	}
}

// termLines reads messages on a terminal with the line editor (see
// editor): arrows, Home, End, words, the persistent history on Up and
// Down, bracketed paste, several lines with Alt-Enter or a trailing \,
// and tab completion. The terminal is in raw mode only while a message is
// read, so Ctrl-C interrupts a turn as a signal.
type termLines struct {
	fd   int
	ed   *editor
	hist *history
	out  io.Writer
}

// newTermLines returns a line reader on the terminal stdin, echoing on
// stderr, with the history kept at histPath ("" for none).
func newTermLines(stdin, stderr *os.File, histPath string, warn func(error)) *termLines {
	h, err := loadHistory(histPath, warn)
	if err != nil {
		warn(err)
	}
	fd := int(stdin.Fd())
	width := func() int {
		if w, _, err := term.GetSize(int(stderr.Fd())); err == nil && w > 0 {
			return w
		}
		return 80
	}
	return &termLines{fd: fd, ed: &editor{in: stdin, out: stderr, width: width, hist: h}, hist: h, out: stderr}
}

// bracketedPaste turns the terminal's bracketed paste on and off.
const (
	pasteOn  = "\x1b[?2004h"
	pasteOff = "\x1b[?2004l"
)

func (r *termLines) readLine(ctx context.Context, prompt string, question bool) (string, error) {
	old, err := term.MakeRaw(r.fd)
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	fmt.Fprint(r.out, pasteOn)
	hist := r.ed.hist
	if question {
		r.ed.hist = nil // answers are not recalled
		// Only keys pressed once the question shows answer it: what was
		// typed ahead (a "y" and Enter meant for another prompt, the
		// rest of a line typed while the model answered) is dropped.
		r.ed.pending = nil
		_ = discardTypeahead(r.fd) // a terminal that cannot keeps it
	}
	line, err := r.ed.readLine(prompt)
	r.ed.hist = hist
	fmt.Fprint(r.out, pasteOff)
	_ = term.Restore(r.fd, old) // as it was; nothing more to do if it fails
	if errors.Is(err, errInterrupted) {
		err = io.EOF
	}
	if err == nil && !question {
		r.hist.Add(line)
	}
	return line, err
}

// session is a conversation and what shows and keeps it.
type session struct {
	conv  *chat.Conversation
	out   *output
	log   *convLog // nil when conversations are not kept
	tools []string
	// describe returns the description of a tool, for /tools NAME; nil
	// when there is none to give.
	describe func(name string) (string, bool)
	// models are the names /model completes: the config file's aliases.
	models []string
	// resolveModel turns what /model was given into a model (an alias
	// of the config file into its model); nil keeps it as it is.
	resolveModel func(string) string
	// clipboard receives the OSC 52 sequence of /copy: the terminal.
	clipboard io.Writer
	// editor runs $EDITOR on a file, for /edit.
	editor func(path string) error
}

// ask runs one turn. A failure that cannot heal ends it at once (see
// failFast); a turn that succeeds is added to the kept conversation.
func (s *session) ask(ctx context.Context, text string) (string, error) {
	before := len(s.conv.Messages())
	ctx, cancel := withAbort(ctx)
	defer cancel(nil)
	s.out.wait()
	answer, err := s.conv.Turn(ctx, text)
	s.out.stopWaiting()
	if err != nil {
		return "", err
	}
	if s.log != nil {
		s.log.add(s.conv.Messages()[before:])
	}
	return answer, nil
}

// commandRE matches a line that is a REPL command: a word after a slash,
// and what follows it.
var commandRE = lazyRE(`^/[A-Za-z?][\w-]*$`)

// replCommands are the commands of a conversation, as /help lists them.
var replCommands = []struct{ name, args, help string }{
	{"/help", "", "this list"},
	{"/tools", "[NAME]", "the tools the model may call, or what one does"},
	{"/model", "[NAME]", "show the model, or switch to another (or an alias)"},
	{"/retry", "", "ask the last question again, in place of its answer"},
	{"/edit", "", "write the next message in $VISUAL or $EDITOR"},
	{"/copy", "", "copy the last answer to the clipboard (OSC 52)"},
	{"/save", "FILE", "write the conversation to FILE as Markdown"},
	{"/reset", "", "start a new conversation (also /new, /clear)"},
	{"/exit", "", "end (also /quit, Ctrl-D, or Ctrl-C at an empty prompt)"},
}

// replKeys describes the keys of the line editor, after the commands.
const replKeys = `Enter sends; Alt-Enter, or \ at the end of a line, starts another line
of the same message, and a paste is one message whatever its lines.
Left, Right, Home, End, Ctrl-A, Ctrl-E move; Ctrl-Left, Ctrl-Right (or
Alt-B, Alt-F) move by word; Ctrl-K, Ctrl-U, Ctrl-W delete; Up and Down
recall earlier lines; Tab completes commands and, after /tools, tools.
Ctrl-C clears the line, and at an empty prompt ends; during an answer it
interrupts the answer. A line beginning with // is sent with one slash;
a line beginning with a space is kept out of the line history.`

// replHelp is the text of /help.
func replHelp() string {
	var b strings.Builder
	for _, c := range replCommands {
		fmt.Fprintf(&b, "%-14s %s\n", strings.TrimSpace(c.name+" "+c.args), c.help)
	}
	return b.String() + replKeys
}

// complete returns the completions of a message's text before the cursor:
// command names, tool names after /tools, model aliases after /model.
func (s *session) complete(before string) []string {
	if !strings.HasPrefix(before, "/") {
		return nil
	}
	var out []string
	if cmd, arg, ok := strings.Cut(before, " "); ok {
		var names []string
		switch cmd {
		case "/tools":
			names = s.tools
		case "/model":
			names = s.models
		}
		for _, n := range names {
			if strings.HasPrefix(n, arg) {
				out = append(out, cmd+" "+n)
			}
		}
		return out
	}
	for _, c := range replCommands {
		if strings.HasPrefix(c.name, before) {
			out = append(out, c.name)
		}
	}
	return out
}

// repl holds a conversation on a terminal. Ctrl-C interrupts the turn in
// flight and keeps the conversation; Ctrl-C at an empty prompt, Ctrl-D or
// /exit ends it. Commands (/help) are answered here and never reach the
// model.
func (c *cli) repl(ctx context.Context, s *session, in lineReader) int {
	if tl, ok := in.(*termLines); ok {
		tl.ed.complete = s.complete
	}
	fmt.Fprintf(c.stderr, "toolreg agent, %d tools. /help lists the commands, /exit or Ctrl-D ends.\n", len(s.tools))
	for {
		l, err := in.readLine(ctx, "> ", false)
		switch {
		case errors.Is(err, io.EOF):
			return exitOK
		case err != nil && ctx.Err() != nil:
			return exitFailed
		case err != nil:
			fmt.Fprintf(c.stderr, "agent: %v\n", err)
			return exitFailed
		}
		line := strings.TrimSpace(l)
		first, arg, _ := strings.Cut(line, " ")
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "//"):
			line = line[1:]
		case commandRE().MatchString(first):
			send, exit := c.command(s, first, strings.TrimSpace(arg))
			if exit {
				return exitOK
			}
			if send == "" {
				continue
			}
			line = send
		}
		turnCtx, stop := c.interruptible(ctx)
		answer, err := s.ask(turnCtx, line)
		interrupted := turnCtx.Err() != nil && ctx.Err() == nil
		stop()
		switch {
		case interrupted:
			s.out.endLine()
			fmt.Fprintln(c.stderr, "(interrupted; the conversation is kept: ask again, /retry, or Ctrl-C again to exit)")
		case err != nil:
			s.out.endLine()
			fmt.Fprintf(c.stderr, "agent: %s%s\n(the conversation is kept: ask again, or /retry)\n", turnError(err), hint(err))
		default:
			s.out.finish(answer)
		}
	}
}

// command runs a REPL command with its argument. It returns a message to
// send to the model (for /retry and /edit), and whether the REPL ends.
func (c *cli) command(s *session, name, arg string) (send string, exit bool) {
	say := func(format string, args ...any) { fmt.Fprintf(c.stderr, format+"\n", args...) }
	switch name {
	case "/exit", "/quit":
		return "", true
	case "/help", "/?":
		say("%s", replHelp())
	case "/reset", "/new", "/clear":
		s.conv.Reset()
		if s.log != nil {
			s.log.restart()
		}
		say("(conversation cleared)")
	case "/tools":
		if arg == "" {
			say("%s", strings.Join(s.tools, ", "))
			break
		}
		d, ok := "", false
		if s.describe != nil {
			d, ok = s.describe(arg)
		}
		if !ok {
			msg := fmt.Sprintf("no tool %q", arg)
			if near := nearest.Word(s.tools, arg); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			say("%s: /tools lists them", msg)
			break
		}
		say("%s: %s", arg, d)
	case "/model":
		if arg == "" {
			say("model: %s", s.conv.Client.Model)
			break
		}
		model := arg
		if s.resolveModel != nil {
			model = s.resolveModel(arg)
		}
		s.conv.Client.Model = model
		if s.log != nil {
			s.log.model = model
		}
		if model != arg {
			say("(model %s, alias %s, from the next question on)", model, arg)
		} else {
			say("(model %s from the next question on)", model)
		}
	case "/retry":
		msgs := s.conv.Messages()
		last := -1
		for j := len(msgs) - 1; j >= 0; j-- {
			if msgs[j].Role == chat.RoleUser {
				last = j
				break
			}
		}
		if last < 0 {
			say("nothing to retry: no question asked yet")
			break
		}
		s.conv.Restore(msgs[:last])
		if s.log != nil {
			s.log.truncate(last)
		}
		say("(asking again: %s)", clip.Line(msgs[last].Content, 60))
		return msgs[last].Content, false
	case "/copy":
		answer := lastAnswer(s.conv.Messages())
		if answer == "" {
			say("nothing to copy: no answer yet")
			break
		}
		if s.clipboard == nil {
			say("no terminal to copy through")
			break
		}
		text := s.copied(answer)
		fmt.Fprint(s.clipboard, osc52(text))
		say("(the last answer, %d characters, sent to the terminal's clipboard)", utf8.RuneCountInString(text))
	case "/save":
		if arg == "" {
			say("/save FILE: name the file to write the conversation to")
			break
		}
		if err := saveMarkdown(arg, s.conv.Client.Model, s.conv.Messages()); err != nil {
			say("agent: /save: %v", err)
			break
		}
		say("(conversation written to %s)", arg)
	case "/edit":
		text, err := s.edit()
		if err != nil {
			say("agent: /edit: %v", err)
			break
		}
		if text == "" {
			say("(the message is empty: nothing sent)")
		}
		return text, false
	default:
		msg := "unknown command " + name
		var names []string
		for _, c := range replCommands {
			names = append(names, c.name)
		}
		if near := nearest.Word(names, name); near != "" {
			msg += " (did you mean " + near + "?)"
		}
		say("%s: /help lists the commands (start a line with // to send it to the model as it is)", msg)
	}
	return "", false
}
