package termmd

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// inline splits the text of one block into pieces with their attributes:
// emphasis, strong, strikethrough, code spans, links and autolinks, and
// backslash escapes. A delimiter without its match is text.
func (p *printer) inline(s string, a attr) []seg {
	var out []seg
	var text strings.Builder
	// noCloser holds, by delimiter run, the position from which a search
	// for a closing run found none: later openers need not look again,
	// which keeps a text of unmatched delimiters linear.
	noCloser := map[string]int{}
	emit := func() {
		if text.Len() > 0 {
			out = append(out, seg{text.String(), a})
			text.Reset()
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0:
			text.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := runLen(s, i)
			if j := closingRun(s, i+n, "`", n); j >= 0 {
				emit()
				body := s[i+n : j]
				if len(body) > 1 && body[0] == ' ' && body[len(body)-1] == ' ' {
					body = body[1 : len(body)-1]
				}
				out = append(out, seg{body, a | code})
				i = j + n
				continue
			}
			text.WriteString(s[i : i+n])
			i += n
			continue
		case c == '*' || c == '_' || c == '~':
			n := runLen(s, i)
			key := s[i : i+n]
			if k, opens := opener(s, i, n); opens {
				if from, seen := noCloser[key]; !seen || i+n < from {
					if j, ok := closer(s, i, n); ok {
						emit()
						out = append(out, p.inline(s[i+n:j], a|k)...)
						i = j + n
						continue
					}
					noCloser[key] = i + n + 1
				}
			}
			text.WriteString(key)
			i += n
			continue
		case c == '[' || (c == '!' && i+1 < len(s) && s[i+1] == '['):
			start := i
			if c == '!' {
				start++
			}
			if label, url, end, ok := linkAt(s, start); ok {
				emit()
				out = append(out, p.inline(label, a|link)...)
				if url != "" && url != label {
					out = append(out, seg{" ", a}, seg{"(" + url + ")", a | faint})
				}
				i = end
				continue
			}
		case c == '<':
			if u, end, ok := p.autolinkAt(s, i); ok {
				emit()
				out = append(out, seg{u, a | link})
				i = end
				continue
			}
		}
		text.WriteByte(c)
		i++
	}
	emit()
	return out
}

// runLen is the length of the run of the byte at s[i].
func runLen(s string, i int) int {
	n := 1
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	return n
}

// closingRun returns the position from from of a run of exactly n
// delimiters d, or -1.
func closingRun(s string, from int, d string, n int) int {
	for j := from; j < len(s); {
		k := strings.Index(s[j:], d)
		if k < 0 {
			return -1
		}
		j += k
		if m := runLen(s, j); m != n {
			j += m
			continue
		}
		return j
	}
	return -1
}

// opener reports whether the delimiter run of n at s[i] may open
// emphasis, and its attributes: * and _ make italic (one), bold (two) or
// both (three), ~~ strikes through. An opening run is followed by a
// non-space; _ does not open inside a word (snake_case stays as it is).
func opener(s string, i, n int) (attr, bool) {
	c := s[i]
	var k attr
	switch {
	case c == '~' && n == 2:
		k = strike
	case c == '~':
		return 0, false
	case n == 1:
		k = italic
	case n == 2:
		k = bold
	case n == 3:
		k = bold | italic
	default:
		return 0, false
	}
	if i+n >= len(s) || s[i+n] == ' ' || (c == '_' && i > 0 && isWordByte(s[i-1])) {
		return 0, false
	}
	return k, true
}

// closer returns the position of the run that closes the opener of n at
// s[i]: as long, not right after it, preceded by a non-space, and for _
// not followed by a letter or digit. Whether a run closes does not
// depend on the opener, so a search that failed fails for every later
// opener too.
func closer(s string, i, n int) (int, bool) {
	c := s[i]
	for j := i + n; j < len(s); {
		j2 := closingRun(s, j, s[i:i+1], n)
		if j2 < 0 {
			return 0, false
		}
		if j2 > i+n && s[j2-1] != ' ' && !(c == '_' && j2+n < len(s) && isWordByte(s[j2+n])) {
			return j2, true
		}
		j = j2 + n
	}
	return 0, false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 0x80 || ('0' <= b && b <= '9') || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

// autolinkAt reads an autolink <http://…>, <https://…> or <mailto:…> at
// s[i], s[i] being '<', and returns its address and the position after
// it. It looks no further than the first space, '<' or '>' after s[i],
// none of which an address holds: a search for the '>' to the end of the
// text, for each '<' of a paragraph without one, cost the square of the
// paragraph (1.6 MB of "<a " took 12 s).
func (p *printer) autolinkAt(s string, i int) (u string, end int, ok bool) {
	k := strings.IndexAny(s[i+1:], " <>")
	if k < 0 {
		p.looked += len(s) - i - 1
		return "", 0, false
	}
	p.looked += k + 1
	if s[i+1+k] != '>' {
		return "", 0, false
	}
	u = s[i+1 : i+1+k]
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "mailto:") {
		return "", 0, false
	}
	return u, i + k + 2, true
}

// Links longer than these are text: the bounds keep a text of unclosed
// brackets linear.
const (
	maxLabel = 1000
	maxURL   = 4000
)

// linkAt reads a link [label](url) at s[i], s[i] being '['.
func linkAt(s string, i int) (label, url string, end int, ok bool) {
	depth := 0
	for j := i; j < len(s) && j <= i+maxLabel; j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth--
			if depth > 0 {
				continue
			}
			if j+1 >= len(s) || s[j+1] != '(' {
				return "", "", 0, false
			}
			close := strings.IndexByte(s[j+2:min(len(s), j+2+maxURL)], ')')
			if close < 0 {
				return "", "", 0, false
			}
			url = strings.TrimSpace(s[j+2 : j+2+close])
			if t := strings.IndexAny(url, " "); t >= 0 { // a title follows the address
				url = url[:t]
			}
			return s[i+1 : j], strings.Trim(url, "<>"), j + 3 + close, true
		}
	}
	return "", "", 0, false
}

// wrap lays segs out in lines of at most the printer's width, the first
// led by first and the others by hang; a word wider than a line has one
// of its own. A piece "\n" breaks the line.
func (p *printer) wrap(segs []seg, first, hang string) string {
	type word []seg
	var words []word
	var cur word
	flush := func() {
		if len(cur) > 0 {
			words = append(words, cur)
			cur = nil
		}
	}
	for _, s := range segs {
		if s.text == "\n" {
			flush()
			words = append(words, word{s})
			continue
		}
		for k, part := range strings.Split(s.text, " ") {
			if k > 0 {
				flush()
			}
			if part != "" {
				cur = append(cur, seg{part, s.a})
			}
		}
	}
	flush()

	var b strings.Builder
	b.WriteString(first)
	col := runewidth.StringWidth(first)
	empty := true // no word on the line yet (a word may take no columns)
	hangWidth := runewidth.StringWidth(hang)
	for _, w := range words {
		if len(w) == 1 && w[0].text == "\n" {
			b.WriteString("\n" + hang)
			col, empty = hangWidth, true
			continue
		}
		width := 0
		for _, s := range w {
			width += runewidth.StringWidth(s.text)
		}
		switch {
		case empty:
		case col+1+width > p.width:
			b.WriteString("\n" + hang)
			col = hangWidth
		default:
			b.WriteString(" ")
			col++
		}
		empty = false
		for _, s := range w {
			b.WriteString(p.paint(s.text, s.a))
		}
		col += width
	}
	return b.String()
}

// paint wraps text in the escape sequences of its attributes.
func (p *printer) paint(text string, a attr) string {
	if p.style == Plain || a == 0 || text == "" {
		return text
	}
	var codes []string
	if a&bold != 0 {
		codes = append(codes, "1")
	}
	if a&italic != 0 {
		codes = append(codes, "3")
	}
	if a&strike != 0 {
		codes = append(codes, "9")
	}
	light := p.style == Light
	switch {
	case a&code != 0 && light:
		codes = append(codes, "38;5;160", "48;5;254")
	case a&code != 0:
		codes = append(codes, "38;5;203", "48;5;236")
	case a&link != 0:
		codes = append(codes, "4", pick(light, "38;5;31", "38;5;44"))
	case a&heading != 0:
		codes = append(codes, pick(light, "38;5;27", "38;5;39"))
	case a&faint != 0:
		codes = append(codes, pick(light, "38;5;246", "38;5;243"))
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + text + "\x1b[0m"
}

func pick(light bool, l, d string) string {
	if light {
		return l
	}
	return d
}
