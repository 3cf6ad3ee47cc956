package agentcli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// The line editor of the conversation on a terminal. golang.org/x/term's
// editor, used before, cannot be taught the keys people press: it types a
// literal H for \eOH, ignores Home and End as \e[1~ \e[4~ \e[7~ \e[8~ and
// Ctrl-arrows, ends the conversation on Ctrl-C whatever was typed, and
// returns a bracketed paste line by line; its key decoder is not
// replaceable. This one is small, decodes every form xterm, tmux, screen,
// rxvt and the Linux console send, and edits a message of several lines.

// keyKind is what a key press does in the editor.
type keyKind int

const (
	keyNone          keyKind = iota // a sequence the editor does not use
	keyRune                         // a character to insert
	keyEnter                        // Enter: send the message
	keyNewline                      // Alt-Enter: a new line in the message
	keyBackspace                    // Backspace, Ctrl-H
	keyDelete                       // Delete
	keyLeft                         // Left, Ctrl-B
	keyRight                        // Right, Ctrl-F
	keyWordLeft                     // Ctrl-Left, Alt-Left, Alt-B
	keyWordRight                    // Ctrl-Right, Alt-Right, Alt-F
	keyHome                         // Home in every form, Ctrl-A
	keyEnd                          // End in every form, Ctrl-E
	keyUp                           // Up, Ctrl-P
	keyDown                         // Down, Ctrl-N
	keyKillEnd                      // Ctrl-K
	keyKillStart                    // Ctrl-U
	keyKillWord                     // Ctrl-W, Alt-Backspace
	keyKillWordRight                // Alt-D
	keyClear                        // Ctrl-L
	keyTab                          // Tab
	keyInterrupt                    // Ctrl-C
	keyEOF                          // Ctrl-D
	keyPaste                        // the start of a bracketed paste
)

// key is one decoded key press.
type key struct {
	kind keyKind
	r    rune // the character of keyRune
}

// pasteEnd ends a bracketed paste.
var pasteEnd = []byte("\x1b[201~")

// decodeKey decodes the first key press in b. It returns the key and the
// bytes it took; n is 0 when b holds only the beginning of a key (read
// more). An escape sequence the editor does not know is taken whole and
// ignored, never typed.
func decodeKey(b []byte) (k key, n int) {
	if len(b) == 0 {
		return key{}, 0
	}
	switch c := b[0]; c {
	case 0x01:
		return key{kind: keyHome}, 1
	case 0x02:
		return key{kind: keyLeft}, 1
	case 0x03:
		return key{kind: keyInterrupt}, 1
	case 0x04:
		return key{kind: keyEOF}, 1
	case 0x05:
		return key{kind: keyEnd}, 1
	case 0x06:
		return key{kind: keyRight}, 1
	case 0x08, 0x7f:
		return key{kind: keyBackspace}, 1
	case '\t':
		return key{kind: keyTab}, 1
	case '\r', '\n':
		return key{kind: keyEnter}, 1
	case 0x0b:
		return key{kind: keyKillEnd}, 1
	case 0x0c:
		return key{kind: keyClear}, 1
	case 0x0e:
		return key{kind: keyDown}, 1
	case 0x10:
		return key{kind: keyUp}, 1
	case 0x15:
		return key{kind: keyKillStart}, 1
	case 0x17:
		return key{kind: keyKillWord}, 1
	case 0x1b:
		return decodeEscape(b)
	default:
		if c < 0x20 {
			return key{}, 1
		}
	}
	if !utf8.FullRune(b) {
		return key{}, 0
	}
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size == 1 {
		return key{}, 1 // not UTF-8: dropped
	}
	return key{kind: keyRune, r: r}, size
}

// decodeEscape decodes a key that begins with ESC: CSI (ESC [) and SS3
// (ESC O) sequences, and Alt with a key (ESC then the key).
func decodeEscape(b []byte) (key, int) {
	if len(b) < 2 {
		return key{}, 0
	}
	switch b[1] {
	case '[':
		return decodeCSI(b)
	case 'O':
		if len(b) < 3 {
			return key{}, 0
		}
		switch b[2] {
		case 'H':
			return key{kind: keyHome}, 3
		case 'F':
			return key{kind: keyEnd}, 3
		case 'A':
			return key{kind: keyUp}, 3
		case 'B':
			return key{kind: keyDown}, 3
		case 'C':
			return key{kind: keyRight}, 3
		case 'D':
			return key{kind: keyLeft}, 3
		case 'c': // rxvt: Ctrl-Right, Ctrl-Left
			return key{kind: keyWordRight}, 3
		case 'd':
			return key{kind: keyWordLeft}, 3
		}
		return key{}, 3
	case '\r', '\n':
		return key{kind: keyNewline}, 2
	case 'b', 'B':
		return key{kind: keyWordLeft}, 2
	case 'f', 'F':
		return key{kind: keyWordRight}, 2
	case 'd', 'D':
		return key{kind: keyKillWordRight}, 2
	case 0x7f, 0x08:
		return key{kind: keyKillWord}, 2
	case 0x1b:
		return key{}, 1 // Escape pressed twice: drop the first
	}
	return key{}, 2 // Alt with a key the editor does not use
}

// decodeCSI decodes ESC [ parameters final.
func decodeCSI(b []byte) (key, int) {
	i := 2
	for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
		i++
	}
	if i >= len(b) {
		if len(b) > 32 {
			return key{}, len(b) // not a key: drop it
		}
		return key{}, 0
	}
	final, params, n := b[i], string(b[2:i]), i+1
	if final < 0x40 || final > 0x7e {
		return key{}, n
	}
	// A modifier is the second parameter: 1;5C is Ctrl-Right, 1;3C
	// Alt-Right (2 Shift, 3 Alt, 5 Ctrl, …, each plus one).
	first, mod, _ := strings.Cut(params, ";")
	if mod == "" && final >= 'A' && final <= 'D' {
		mod = first // the old form, \e[5D, of Ctrl-Left
	}
	word := mod != "" && mod != "1" && mod != "2"
	switch final {
	case 'A':
		return key{kind: keyUp}, n
	case 'B':
		return key{kind: keyDown}, n
	case 'C':
		if word {
			return key{kind: keyWordRight}, n
		}
		return key{kind: keyRight}, n
	case 'D':
		if word {
			return key{kind: keyWordLeft}, n
		}
		return key{kind: keyLeft}, n
	case 'H':
		return key{kind: keyHome}, n
	case 'F':
		return key{kind: keyEnd}, n
	case '~':
		switch first {
		case "1", "7":
			return key{kind: keyHome}, n
		case "4", "8":
			return key{kind: keyEnd}, n
		case "3":
			if word {
				return key{kind: keyKillWordRight}, n
			}
			return key{kind: keyDelete}, n
		case "200":
			return key{kind: keyPaste}, n
		}
	case 'u': // the kitty keyboard protocol: 13;3u is Alt-Enter
		if first == "13" && word {
			return key{kind: keyNewline}, n
		}
	}
	return key{}, n
}

// errInterrupted is what readLine returns on Ctrl-C at an empty line.
var errInterrupted = errors.New("interrupted")

// editor edits a message on a terminal in raw mode: the prompt and the
// text, over as many rows as it needs.
type editor struct {
	in  io.Reader
	out io.Writer
	// width returns the terminal's width in columns.
	width func() int
	// hist is the line history on Up and Down; nil for none.
	hist *history
	// complete returns the completions of the text before the cursor,
	// each the whole text it would become; nil for none.
	complete func(before string) []string

	pending []byte // read, not yet decoded
	readErr error  // the error that ended reading, once pending is used

	// The message being edited.
	prompt string
	buf    []rune
	pos    int // the cursor, an index in buf
	row    int // the screen row of the cursor, from the prompt's
	// histAt is the history entry shown, -1 for the message being
	// typed, which draft keeps while history is shown.
	histAt int
	draft  []rune
}

// contPrompt begins each further row of a message of several lines.
const contPrompt = "… "

// readLine shows prompt and edits a message until Enter; it returns
// io.EOF on Ctrl-D at an empty line, and errInterrupted on Ctrl-C at an
// empty line (on a line with text, Ctrl-C clears it).
func (e *editor) readLine(prompt string) (string, error) {
	e.prompt, e.buf, e.pos, e.row, e.histAt, e.draft = prompt, nil, 0, 0, -1, nil
	e.render()
	for {
		k, err := e.next()
		if err != nil {
			e.finish()
			return "", err
		}
		switch k.kind {
		case keyRune:
			e.insert(k.r)
		case keyEnter:
			if e.pos == len(e.buf) && e.pos > 0 && e.buf[e.pos-1] == '\\' {
				e.buf[e.pos-1] = '\n' // a line ending in \ goes on
				e.render()
				continue
			}
			e.pos = len(e.buf)
			e.render()
			e.finish()
			return string(e.buf), nil
		case keyNewline:
			e.insert('\n')
		case keyBackspace:
			if e.pos > 0 {
				e.buf = slices.Delete(e.buf, e.pos-1, e.pos)
				e.pos--
			}
		case keyDelete:
			if e.pos < len(e.buf) {
				e.buf = slices.Delete(e.buf, e.pos, e.pos+1)
			}
		case keyLeft:
			e.pos = max(e.pos-1, 0)
		case keyRight:
			e.pos = min(e.pos+1, len(e.buf))
		case keyWordLeft:
			e.pos = wordLeft(e.buf, e.pos)
		case keyWordRight:
			e.pos = wordRight(e.buf, e.pos)
		case keyHome:
			e.pos = lineStart(e.buf, e.pos)
		case keyEnd:
			e.pos = lineEnd(e.buf, e.pos)
		case keyKillEnd:
			e.buf = slices.Delete(e.buf, e.pos, lineEnd(e.buf, e.pos))
		case keyKillStart:
			start := lineStart(e.buf, e.pos)
			e.buf = slices.Delete(e.buf, start, e.pos)
			e.pos = start
		case keyKillWord:
			start := wordLeft(e.buf, e.pos)
			e.buf = slices.Delete(e.buf, start, e.pos)
			e.pos = start
		case keyKillWordRight:
			e.buf = slices.Delete(e.buf, e.pos, wordRight(e.buf, e.pos))
		case keyUp:
			e.recall(1)
		case keyDown:
			e.recall(-1)
		case keyClear:
			fmt.Fprint(e.out, "\x1b[H\x1b[2J")
			e.row = 0
		case keyTab:
			e.tab()
		case keyPaste:
			text, err := e.paste()
			if err != nil {
				e.finish()
				return "", err
			}
			for _, r := range text {
				e.buf = slices.Insert(e.buf, e.pos, r)
				e.pos++
			}
		case keyInterrupt:
			if len(e.buf) == 0 {
				e.finish()
				return "", errInterrupted
			}
			// Clear the message, as shells do: what was typed stays on
			// the screen, marked, and a new prompt follows.
			e.pos = len(e.buf)
			e.render()
			fmt.Fprint(e.out, "^C")
			e.finish()
			e.buf, e.pos, e.row, e.histAt, e.draft = nil, 0, 0, -1, nil
		case keyEOF:
			if len(e.buf) == 0 {
				e.finish()
				return "", io.EOF
			}
			if e.pos < len(e.buf) {
				e.buf = slices.Delete(e.buf, e.pos, e.pos+1)
			}
		default:
			continue
		}
		e.render()
	}
}

// next returns the next key press, reading as needed.
func (e *editor) next() (key, error) {
	for {
		if len(e.pending) > 0 {
			k, n := decodeKey(e.pending)
			if n > 0 {
				e.pending = e.pending[n:]
				return k, nil
			}
			if e.readErr != nil { // a sequence cut short: drop it
				e.pending = nil
				continue
			}
		}
		if e.readErr != nil {
			return key{}, e.readErr
		}
		e.fill()
	}
}

// fill reads once more from the terminal into pending.
func (e *editor) fill() {
	buf := make([]byte, 4096)
	n, err := e.in.Read(buf)
	e.pending = append(e.pending, buf[:n]...)
	if err != nil {
		e.readErr = err
	}
}

// paste returns the text of a bracketed paste, whose start was read: up
// to its end, with line ends as \n and other control characters left out.
func (e *editor) paste() (string, error) {
	for {
		if i := bytes.Index(e.pending, pasteEnd); i >= 0 {
			text := e.pending[:i]
			e.pending = e.pending[i+len(pasteEnd):]
			return cleanPaste(text), nil
		}
		if e.readErr != nil {
			text := cleanPaste(e.pending)
			e.pending = nil
			if text != "" {
				return text, nil
			}
			return "", e.readErr
		}
		e.fill()
	}
}

// cleanPaste makes pasted bytes text to insert: CRLF and CR as \n, tabs
// kept, other control characters (escape sequences among them) dropped.
func cleanPaste(b []byte) string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ToValidUTF8(s, "")
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
}

func (e *editor) insert(r rune) {
	e.buf = slices.Insert(e.buf, e.pos, r)
	e.pos++
}

// recall shows the history entry by steps older (negative: newer).
func (e *editor) recall(by int) {
	if e.hist == nil {
		return
	}
	at := e.histAt + by
	if at < -1 || at >= e.hist.Len() {
		return
	}
	if e.histAt == -1 {
		e.draft = slices.Clone(e.buf)
	}
	e.histAt = at
	if at == -1 {
		e.buf = e.draft
	} else {
		e.buf = []rune(e.hist.At(at))
	}
	e.pos = len(e.buf)
}

// tab completes the text before the cursor: the one completion, or what
// all have in common, or a list of them when they have nothing more in
// common.
func (e *editor) tab() {
	if e.complete == nil {
		return
	}
	before := string(e.buf[:e.pos])
	cands := e.complete(before)
	if len(cands) == 0 {
		return
	}
	common := cands[0]
	for _, c := range cands[1:] {
		common = commonPrefix(common, c)
	}
	if len(cands) == 1 {
		common += " "
	}
	if len([]rune(common)) > e.pos {
		e.buf = slices.Concat([]rune(common), e.buf[e.pos:])
		e.pos = len([]rune(common))
		return
	}
	// Nothing to add: list them below the message.
	e.pos = len(e.buf)
	e.render()
	fmt.Fprint(e.out, "\r\n")
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c[strings.LastIndexByte(c, ' ')+1:]
	}
	fmt.Fprint(e.out, strings.Join(names, "  "), "\r\n")
	e.row = 0
}

func commonPrefix(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	return string(ra[:i])
}

// render draws the prompt and the message from the prompt's row and puts
// the cursor at pos.
func (e *editor) render() {
	w := max(e.width(), 1)
	var out strings.Builder
	if e.row > 0 {
		fmt.Fprintf(&out, "\x1b[%dA", e.row)
	}
	out.WriteString("\r\x1b[J")
	row, col := 0, 0
	curRow, curCol := 0, 0
	put := func(s string) {
		for _, r := range s {
			rw := runewidth.RuneWidth(r)
			if col+rw > w { // the terminal wraps: at the edge, or a wide rune past it
				row, col = row+1, 0
			}
			out.WriteRune(r)
			col += rw
		}
	}
	put(e.prompt)
	for i, r := range e.buf {
		if i == e.pos {
			curRow, curCol = row, col
		}
		if r == '\n' {
			out.WriteString("\r\n")
			row, col = row+1, 0
			put(contPrompt)
			continue
		}
		put(string(r))
	}
	if e.pos == len(e.buf) {
		curRow, curCol = row, col
	}
	if col >= w { // the terminal waits at the edge: move on for it
		out.WriteString("\r\n")
		row, col = row+1, 0
	}
	if curCol >= w {
		curRow, curCol = curRow+1, 0
	}
	if up := row - curRow; up > 0 {
		fmt.Fprintf(&out, "\x1b[%dA", up)
	}
	out.WriteString("\r")
	if curCol > 0 {
		fmt.Fprintf(&out, "\x1b[%dC", curCol)
	}
	e.row = curRow
	io.WriteString(e.out, out.String())
}

// finish moves below the message: the next output begins on a new line.
func (e *editor) finish() {
	saved := e.pos
	e.pos = len(e.buf)
	e.render()
	e.pos = saved
	fmt.Fprint(e.out, "\r\n")
	e.row = 0
}

// lineStart returns the start of the line of the message pos is in.
func lineStart(buf []rune, pos int) int {
	for pos > 0 && buf[pos-1] != '\n' {
		pos--
	}
	return pos
}

// lineEnd returns the end of the line of the message pos is in.
func lineEnd(buf []rune, pos int) int {
	for pos < len(buf) && buf[pos] != '\n' {
		pos++
	}
	return pos
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// wordLeft returns the start of the word before pos.
func wordLeft(buf []rune, pos int) int {
	for pos > 0 && !isWordRune(buf[pos-1]) {
		pos--
	}
	for pos > 0 && isWordRune(buf[pos-1]) {
		pos--
	}
	return pos
}

// wordRight returns the end of the word after pos.
func wordRight(buf []rune, pos int) int {
	for pos < len(buf) && !isWordRune(buf[pos]) {
		pos++
	}
	for pos < len(buf) && isWordRune(buf[pos]) {
		pos++
	}
	return pos
}
