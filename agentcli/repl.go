package agentcli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"golang.org/x/term"

	"github.com/toolreg/toolreg/chat"
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
	return &pipeLines{lines: lines, interrupts: c.interrupts, stderr: c.stderr}
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

// termLines reads lines on a terminal with line editing (arrows, Home,
// End, Ctrl-A/E/K/U/W, Alt-arrows by word) and the persistent history on
// Up and Down, through golang.org/x/term. The terminal is in raw mode only
// while a line is read, so Ctrl-C interrupts a turn as a signal.
type termLines struct {
	fd   int
	t    *term.Terminal
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
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{stdin, stderr}, "> ")
	t.History = h
	return &termLines{fd: int(stdin.Fd()), t: t, hist: h, out: stderr}
}

func (r *termLines) readLine(ctx context.Context, prompt string, question bool) (string, error) {
	old, err := term.MakeRaw(r.fd)
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	if w, h, err := term.GetSize(r.fd); err == nil {
		_ = r.t.SetSize(w, h) // only redraws the line being edited
	}
	r.t.SetPrompt(prompt)
	r.hist.paused = question
	line, err := r.t.ReadLine()
	r.hist.paused = false
	_ = term.Restore(r.fd, old) // as it was; nothing more to do if it fails
	if errors.Is(err, term.ErrPasteIndicator) {
		err = nil
	}
	if err == io.EOF {
		fmt.Fprintln(r.out)
	}
	return line, err
}

// session is a conversation and what shows and keeps it.
type session struct {
	conv  *chat.Conversation
	out   *output
	log   *convLog // nil when conversations are not kept
	tools []string
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

// commandRE matches a line that is a REPL command: a word after a slash.
var commandRE = regexp.MustCompile(`^/[A-Za-z?][\w-]*$`)

const replHelp = `/help    this list
/tools   the tools the model may call
/reset   start a new conversation
/exit    end (also /quit, Ctrl-D, or Ctrl-C at the prompt)
Up and Down recall earlier lines; Ctrl-C during an answer interrupts it.
A line beginning with // is sent with one slash; a line beginning with a
space is kept out of the line history.`

// repl holds a conversation on a terminal. Ctrl-C interrupts the turn in
// flight and keeps the conversation; Ctrl-C at the prompt, Ctrl-D or /exit
// ends it. Commands (/help) are answered here and never reach the model.
func (c *cli) repl(ctx context.Context, s *session, in lineReader) int {
	fmt.Fprintf(c.stderr, "toolreg agent, %d tools. /help lists the commands, /exit or Ctrl-D ends.\n", len(s.tools))
	for {
		l, err := in.readLine(ctx, "> ", false)
		switch {
		case errors.Is(err, io.EOF):
			return 0
		case err != nil && ctx.Err() != nil:
			return 1
		case err != nil:
			fmt.Fprintf(c.stderr, "agent: %v\n", err)
			return 1
		}
		line := strings.TrimSpace(l)
		first, _, _ := strings.Cut(line, " ")
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "//"):
			line = line[1:]
		case commandRE.MatchString(first):
			if c.command(s, first) {
				return 0
			}
			continue
		}
		turnCtx, stop := c.interruptible(ctx)
		answer, err := s.ask(turnCtx, line)
		interrupted := turnCtx.Err() != nil && ctx.Err() == nil
		stop()
		switch {
		case interrupted:
			s.out.endLine()
			fmt.Fprintln(c.stderr, "(interrupted; the conversation is kept: ask again, or Ctrl-C again to exit)")
		case err != nil:
			s.out.endLine()
			fmt.Fprintf(c.stderr, "agent: %v%s\n(the conversation is kept: ask again to retry)\n", err, hint(err))
		default:
			s.out.finish(answer)
		}
	}
}

// command runs a REPL command; it reports whether the REPL ends.
func (c *cli) command(s *session, name string) bool {
	switch name {
	case "/exit", "/quit":
		return true
	case "/help", "/?":
		fmt.Fprintln(c.stderr, replHelp)
	case "/reset", "/new", "/clear":
		s.conv.Reset()
		if s.log != nil {
			s.log.restart()
		}
		fmt.Fprintln(c.stderr, "(conversation cleared)")
	case "/tools":
		fmt.Fprintln(c.stderr, strings.Join(s.tools, ", "))
	default:
		fmt.Fprintf(c.stderr, "unknown command %s: /help lists the commands (start a line with // to send it to the model as it is)\n", name)
	}
	return false
}
