// Package clip shortens text for messages, logs and traces. There is one
// way to cut here: at a character boundary, marking the cut with "…", so
// that a reader (a person or a model) knows part was left out.
package clip

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Ellipsis marks a cut.
const Ellipsis = "…"

// String returns s when it is at most n bytes long, and otherwise its
// first n bytes or fewer, ending at a character boundary, followed by
// Ellipsis. An n of zero or less keeps nothing but the Ellipsis.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(0, n)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + Ellipsis
}

// Line returns s on one line: leading and trailing white space removed,
// every other run of white space (line breaks included) made one space;
// when that has more than n characters (runes), its first n followed
// by Ellipsis. Control characters are dropped, as Printable does: a line
// is shown to a person, and what it quotes (a tool's result or arguments,
// a server's message) must not drive their terminal.
func Line(s string, n int) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = Printable(w)
	}
	words = slices.DeleteFunc(words, func(w string) bool { return w == "" })
	s = strings.Join(words, " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	k := 0
	for i := range s {
		if k == n {
			return s[:i] + Ellipsis
		}
		k++
	}
	return s
}

// Printable returns s fit for a terminal: every control character but
// newline and tab dropped (C0, DEL and C1: escape sequences that would
// move the cursor, clear the screen, set the window title or write the
// clipboard lose their introducer), the controls of bidirectional text
// that reorder it dropped too (see BidiControl), and each byte that is
// not UTF-8 made U+FFFD (a terminal of 8-bit characters reads a lone
// 0x9b as a control sequence introducer). Text without any is returned
// as it is.
func Printable(s string) string {
	clean := utf8.ValidString(s)
	for i := 0; clean && i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == 0xc2 {
			clean = false
		} else if c == 0xe2 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			clean = !BidiControl(r)
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 || BidiControl(r) {
			continue
		}
		b.WriteRune(r) // utf8.RuneError for a byte that is not UTF-8
	}
	return b.String()
}

// BidiControl reports whether r is an explicit embedding, override or
// isolate of bidirectional text (U+202A–U+202E, U+2066–U+2069). A
// terminal that lays out bidirectional text (Konsole, mlterm, VTE with
// BiDi) shows what follows one reordered, so that text read on the screen
// is not the text that is used: a command allowed in a question, an
// answer copied ("Trojan Source", CVE-2021-42574). The implicit marks
// (LRM, RLM, ALM), which right-to-left text uses and which reorder no
// letter, are not among them.
func BidiControl(r rune) bool {
	return r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

// JSON returns the JSON text b fit for a terminal, with the same meaning:
// the C1 controls (U+0080–U+009F) and the controls of bidirectional text
// (see BidiControl) in its strings written as \u escapes, which
// encoding/json leaves as they are and a terminal that reads UTF-8 C1 acts
// on (U+009B is CSI, U+009D OSC). Outside strings JSON has none. b without
// any is returned as it is.
func JSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x80 && r < 0xa0 || BidiControl(r) {
			if out == nil {
				out = make([]byte, 0, len(b)+16)
			}
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
