package agentcli

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/toolreg/toolreg/internal/termmd"
)

// lazyRE returns a regular expression compiled at its first use: the
// agent binary is also every tool worker, which should not pay at start-up
// for the expressions of commands it never runs.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// terminalFile returns the file behind w if it is a terminal.
func terminalFile(w any) (*os.File, bool) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, false
	}
	return f, true
}

// newMarkdown returns a renderer of Markdown for the terminal f, wrapped
// to its width, in the style TOOLREG_STYLE names (GLAMOUR_STYLE is read
// too, for those who set it for an earlier version): dark by default,
// plain when NO_COLOR is set. An unknown style is an error, and the
// renderer then uses dark.
func newMarkdown(f *os.File, getenv env) (*termmd.Renderer, error) {
	width := 80
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		width = w
	}
	name := cmp.Or(getenv("TOOLREG_STYLE"), getenv("GLAMOUR_STYLE"))
	if name == "" && getenv("NO_COLOR") != "" {
		name = "plain"
	}
	st, ok := termmd.ParseStyle(name)
	r := &termmd.Renderer{Width: max(width-2, 20), Style: st}
	if !ok {
		return r, fmt.Errorf("TOOLREG_STYLE=%q is not a style: want dark, light or plain; using dark", name)
	}
	return r, nil
}

// completeBlocks returns the length of the longest prefix of s that ends
// with whole Markdown blocks: at a blank line or a closing code fence,
// outside code fences. What follows may still change as text streams in.
func completeBlocks(s string) int {
	var b blockScan
	return b.scan(s)
}

// blockScan finds where the whole blocks of a streamed answer end, as
// completeBlocks does, looking at each line once as the answer grows: a
// scan from the start at every piece cost the square of the answer (an
// unclosed code fence of 7 MB in pieces of 1,000 bytes took two minutes
// of the processor before anything was shown).
type blockScan struct {
	pos   int    // where the first line not yet looked at begins
	end   int    // the end of the whole blocks found
	fence string // the code fence open at pos, "" for none
	// looked counts the bytes of the lines looked at, for the tests.
	looked int
}

// scan looks at the whole lines of s from where it stopped (s is the
// text it was given before, with more appended) and returns the length of
// the longest prefix of s that ends with whole blocks.
func (b *blockScan) scan(s string) int {
	for {
		nl := strings.IndexByte(s[b.pos:], '\n')
		if nl < 0 {
			return b.end
		}
		line := strings.TrimLeft(s[b.pos:b.pos+nl], " ")
		b.looked += nl + 1
		b.pos += nl + 1
		switch {
		case b.fence != "":
			if strings.HasPrefix(line, b.fence) && strings.TrimSpace(strings.TrimLeft(line, b.fence[:1])) == "" {
				b.fence = ""
				b.end = b.pos
			}
		case strings.HasPrefix(line, "```"), strings.HasPrefix(line, "~~~"):
			b.fence = line[:len(line)-len(strings.TrimLeft(line, line[:1]))]
		case strings.TrimSpace(line) == "":
			b.end = b.pos
		}
	}
}

// drop tells b that the first n bytes of its text, up to the end of the
// whole blocks it found, were taken away: it goes on with the rest.
func (b *blockScan) drop(n int) {
	b.pos -= n
	b.end = 0
}

// renderBlocks renders Markdown text with r and writes it to w; first says
// whether it begins the answer (later blocks are set off by a blank line).
func renderBlocks(w io.Writer, r *termmd.Renderer, text string, first bool) {
	if strings.TrimSpace(text) == "" {
		return
	}
	out := r.Render(text)
	if !first {
		out = "\n" + out
	}
	fmt.Fprintln(w, out)
}

// spinner is the waiting indicator: a line on the terminal's stderr that
// says the agent waits for the model, erased when output begins.
type spinner struct {
	stop chan struct{}
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// wait shows the waiting indicator until stopWaiting, if stderr is a
// terminal.
func (o *output) wait() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.waitLocked()
}

func (o *output) waitLocked() {
	if !o.spin || o.spinning != nil || o.asking {
		return
	}
	s := &spinner{stop: make(chan struct{})}
	o.spinning = s
	start := time.Now()
	go func() {
		t := time.NewTicker(120 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
			o.mu.Lock()
			if o.spinning == s {
				fmt.Fprintf(o.stderr, "\r%s %s… %ds", spinFrames[i%len(spinFrames)], cmp.Or(o.label, "waiting for the model"), int(time.Since(start).Seconds()))
				o.drawn = true
			}
			o.mu.Unlock()
		}
	}()
}

// holdWaiting erases the waiting indicator and keeps it off, and holds
// the lines of the trace back (see tracef), while a question is asked on
// the terminal, until the function it returns is called: the indicator redraws its line every 120 ms, and a tool's
// result that came in meanwhile would start it over the question's last
// line (a model calling a quick tool beside one that asks had the
// question written over by "waiting for the model"). It does nothing
// on a nil output.
func (o *output) holdWaiting() (release func()) {
	if o == nil {
		return func() {}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.asking = true
	o.stopWaitingLocked()
	return func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.asking = false
		if o.held.Len() > 0 {
			fmt.Fprint(o.stderr, o.held.String())
			o.held.Reset()
		}
		o.waitLocked() // the turn waits on, for its tools or the model
	}
}

// stopWaiting erases the waiting indicator.
func (o *output) stopWaiting() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopWaitingLocked()
}

func (o *output) stopWaitingLocked() {
	if o.spinning == nil {
		return
	}
	close(o.spinning.stop)
	o.spinning = nil
	if o.drawn {
		fmt.Fprint(o.stderr, "\r\x1b[K")
		o.drawn = false
	}
}
