package toolmcp

import (
	"io"
	"sync"
	"unicode/utf8"

	"github.com/toolreg/toolreg/internal/clip"
)

// printableWriter passes what a stdio server writes on its standard error
// on to w without control characters (clip.Printable), which the agent
// shows on its terminal: a server that echoes what it was sent (a call's
// arguments, which a prompt-injected model wrote; a remote server's
// messages, relayed) wrote escape sequences there that set the clipboard
// (OSC 52), or moved the cursor and cleared lines above the agent's
// confirmation question. A character cut between two writes waits for the
// rest, so that a C1 control split in two does not pass.
type printableWriter struct {
	w io.Writer

	mu   sync.Mutex
	tail []byte // the start of a character cut by the last write
}

func (p *printableWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	buf := append(p.tail, b...)
	p.tail = nil
	// Keep back the start of a character that is not whole yet.
	for i := 1; i <= utf8.UTFMax-1 && i <= len(buf); i++ {
		if c := buf[len(buf)-i]; utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(buf[len(buf)-i:]) {
				p.tail = append([]byte(nil), buf[len(buf)-i:]...)
				buf = buf[:len(buf)-i]
			}
			break
		}
	}
	if len(buf) > 0 {
		if _, err := io.WriteString(p.w, clip.Printable(string(buf))); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}
