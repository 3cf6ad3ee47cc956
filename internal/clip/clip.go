// Package clip shortens text for messages, logs and traces. There is one
// way to cut here: at a character boundary, marking the cut with "…", so
// that a reader (a person or a model) knows part was left out.
package clip

import (
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
// by Ellipsis.
func Line(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
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
