// Package termmd renders the Markdown a model writes for a terminal:
// headings, paragraphs wrapped to the terminal's width, lists, quotes,
// code blocks, tables, rules, and emphasis, code and links inside lines.
//
// It is small on purpose. The agent renders every answer with it, and the
// agent binary is also every tool worker: a general Markdown library with
// syntax highlighting (the one used before) cost 12 MB of binary and 45 ms
// of package initialisation on every start, worker or not. This package
// has no initialisation work and no dependency beyond display widths.
//
// It is not a CommonMark implementation: it reads the Markdown models
// write, line by line, and whatever it does not recognise it prints as
// text. It never loses a word, and it never passes on a control character
// of the text: a model's answer cannot move the cursor, set the title or
// write the clipboard of the user's terminal.
package termmd

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/toolreg/toolreg/internal/clip"
)

// Style is how text is shown.
type Style uint8

const (
	// Dark colours text for a terminal with a dark background.
	Dark Style = iota
	// Light colours text for a terminal with a light background.
	Light
	// Plain lays text out without colours or other escape sequences.
	Plain
)

// ParseStyle returns the style s names: "dark", "light", or "plain"
// (also "notty", "ascii" and "none"); "" is Dark. ok is false for any
// other name, and then the style is Dark.
func ParseStyle(s string) (st Style, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "dark", "auto":
		return Dark, true
	case "light":
		return Light, true
	case "plain", "notty", "ascii", "none", "nocolor":
		return Plain, true
	}
	return Dark, false
}

// Renderer renders Markdown for a terminal of a given width.
type Renderer struct {
	// Width is the number of columns paragraphs are wrapped to; below 20
	// it is taken as 20.
	Width int
	// Style is the colour scheme.
	Style Style
}

// Render returns text rendered: blocks separated by one blank line,
// without a leading or trailing blank line.
func (r Renderer) Render(text string) string {
	p := &printer{width: max(r.Width, 20), style: r.Style}
	p.blocks(strings.Split(sanitize(text), "\n"))
	return strings.Trim(p.out.String(), "\n")
}

// Sanitize returns text fit for a terminal without rendering it: control
// characters but newline dropped, the controls of bidirectional text that
// reorder it too, tabs as four spaces, bytes that are not UTF-8 as
// U+FFFD, as Render does before it renders.
func Sanitize(text string) string { return sanitize(text) }

// sanitize removes every control character but newline and tab, and
// carriage returns, and the controls of bidirectional text; tabs become four spaces; bytes that are not UTF-8
// become U+FFFD (a terminal of 8-bit characters reads a lone 0x9b as a
// control sequence, and two lone bytes on either side of an escape
// sequence read as one character once it is stripped).
func sanitize(s string) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if isControl(r) || r == '\t' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("    ")
		case isControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports whether r is dropped before text reaches the
// terminal: control characters, the line and paragraph separators, and
// the controls of bidirectional text that reorder what follows them (see
// clip.BidiControl).
func isControl(r rune) bool {
	return (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) || r == '\u2028' || r == '\u2029' || clip.BidiControl(r)
}

// attr is a set of text attributes.
type attr uint8

const (
	bold attr = 1 << iota
	italic
	code
	strike
	link
	faint
	heading
)

// seg is a piece of text with its attributes.
type seg struct {
	text string
	a    attr
}

type printer struct {
	width int
	style Style
	depth int // of quotes around the text
	out   strings.Builder
	// looked counts the bytes looked at for autolinks, for the tests.
	looked int
}

// maxQuotes is the depth of quotes rendered as quotes; deeper ones are
// text, so that a hostile answer of nested quotes costs no more than text.
const maxQuotes = 8

// patterns are the expressions that recognise blocks, compiled at the
// first render rather than at start-up: the agent binary is also every
// tool worker, which never renders.
type patterns struct {
	heading, item, rule, fence, sep, setext *regexp.Regexp
}

var compiled = sync.OnceValue(func() *patterns {
	return &patterns{
		heading: regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`),
		item:    regexp.MustCompile(`^( *)([-*+]|[0-9]{1,9}[.)])(?: +(.*))?$`),
		rule:    regexp.MustCompile(`^ {0,3}(?:(?:\* *){3,}|(?:- *){3,}|(?:_ *){3,})$`),
		fence:   regexp.MustCompile("^( *)(`{3,}|~{3,})[ ]*([^`]*)$"),
		sep:     regexp.MustCompile(`^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$`),
		setext:  regexp.MustCompile(`^ {0,3}(=+|-+) *$`),
	}
})

// blocks renders lines as a sequence of blocks.
func (p *printer) blocks(lines []string) {
	re := compiled()
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "":
			i++
		case re.fence.MatchString(line):
			i = p.fence(lines, i)
		case re.heading.MatchString(line):
			m := re.heading.FindStringSubmatch(line)
			p.heading(len(m[1]), m[2])
			i++
		case re.rule.MatchString(line):
			p.block(p.paint(strings.Repeat("─", min(p.width, 40)), faint))
			i++
		case strings.HasPrefix(strings.TrimLeft(line, " "), ">") && p.depth < maxQuotes:
			i = p.quote(lines, i)
		case re.item.MatchString(line):
			i = p.list(lines, i)
		case isTableStart(lines, i):
			i = p.table(lines, i)
		default:
			i = p.paragraph(lines, i)
		}
	}
}

// startsBlock reports whether line begins a block other than a paragraph,
// which ends the paragraph before it.
func startsBlock(line string) bool {
	re := compiled()
	return strings.TrimSpace(line) == "" || re.fence.MatchString(line) || re.heading.MatchString(line) ||
		re.rule.MatchString(line) || strings.HasPrefix(strings.TrimLeft(line, " "), ">") || re.item.MatchString(line)
}

// block writes a rendered block, set off from the one before it.
func (p *printer) block(s string) {
	if p.out.Len() > 0 {
		p.out.WriteString("\n")
	}
	p.out.WriteString(s)
	p.out.WriteString("\n")
}

func (p *printer) heading(level int, text string) {
	marks := strings.Repeat("#", level) + " "
	if p.style != Plain {
		marks = ""
	}
	a := bold | heading
	p.block(p.wrap(append([]seg{{marks, bold}}, p.inline(text, a)...), "", ""))
}

// paragraph renders the lines from i up to the next blank line or block,
// joined and wrapped; a setext underline makes it a heading.
func (p *printer) paragraph(lines []string, i int) int {
	re := compiled()
	var text []string
	for ; i < len(lines); i++ {
		if len(text) > 0 && re.setext.MatchString(lines[i]) {
			level := 1
			if strings.Contains(lines[i], "-") {
				level = 2
			}
			p.heading(level, strings.Join(text, " "))
			return i + 1
		}
		if len(text) > 0 && (startsBlock(lines[i]) || isTableStart(lines, i)) {
			break
		}
		text = append(text, lines[i])
	}
	p.block(p.wrap(p.joined(text, 0), "", ""))
	return i
}

func isTableStart(lines []string, i int) bool {
	re := compiled()
	return i+1 < len(lines) && strings.Contains(lines[i], "|") && re.sep.MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-")
}

// joined renders the lines of a paragraph as one run of text: a line
// ending in two spaces or a backslash breaks the line there.
func (p *printer) joined(text []string, a attr) []seg {
	var segs []seg
	for k, l := range text {
		hard := strings.HasSuffix(l, "  ") || (strings.HasSuffix(l, "\\") && !strings.HasSuffix(l, "\\\\"))
		l = strings.TrimSpace(l)
		if hard {
			l = strings.TrimSuffix(l, "\\")
		}
		segs = append(segs, p.inline(l, a)...)
		switch {
		case k == len(text)-1:
		case hard:
			segs = append(segs, seg{"\n", 0})
		default:
			segs = append(segs, seg{" ", 0})
		}
	}
	return segs
}

// fence renders a fenced code block from its opening line at i; it runs
// to the closing fence or the end of the text.
func (p *printer) fence(lines []string, i int) int {
	re := compiled()
	m := re.fence.FindStringSubmatch(lines[i])
	indent, mark := len(m[1]), m[2]
	var b strings.Builder
	i++
	for ; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimLeft(l, " ")
		if closes(t, mark) {
			i++
			break
		}
		l = l[min(indent, len(l)-len(t)):]
		b.WriteString("  " + p.paint(l, code) + "\n")
	}
	p.block(strings.TrimSuffix(b.String(), "\n"))
	return i
}

// closes reports whether the line t (without its indent) closes a
// fence opened with mark: the same character, at least as many, and
// nothing after them.
func closes(t, mark string) bool {
	rest := strings.TrimLeft(t, mark[:1])
	return len(t)-len(rest) >= len(mark) && strings.TrimSpace(rest) == ""
}

// quote renders the lines from i that begin with ">" (and the lines of
// text that continue them) as a quoted block.
func (p *printer) quote(lines []string, i int) int {
	var inner []string
	for ; i < len(lines); i++ {
		t := strings.TrimLeft(lines[i], " ")
		if !strings.HasPrefix(t, ">") {
			if strings.TrimSpace(t) == "" || startsBlock(t) || len(inner) == 0 {
				break
			}
			inner = append(inner, t) // a lazy continuation line
			continue
		}
		t = strings.TrimPrefix(t, ">")
		inner = append(inner, strings.TrimPrefix(t, " "))
	}
	sub := &printer{width: max(p.width-2, 10), style: p.style, depth: p.depth + 1}
	sub.blocks(inner)
	bar := p.paint("│", faint) + " "
	var b strings.Builder
	for _, l := range strings.Split(strings.Trim(sub.out.String(), "\n"), "\n") {
		b.WriteString(bar + l + "\n")
	}
	p.block(strings.TrimSuffix(b.String(), "\n"))
	return i
}

// list renders the items of a list from i, nested by indentation, with
// the lines that continue each item; blank lines between items are
// kept out.
func (p *printer) list(lines []string, i int) int {
	re := compiled()
	type item struct {
		indent int
		marker string
		text   []string
	}
	var items []item
	var b strings.Builder
	flush := func() {
		type level struct{ indent, hang int }
		var stack []level // the open levels, outermost first
		for _, it := range items {
			for len(stack) > 0 && it.indent < stack[len(stack)-1].indent {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && it.indent == stack[len(stack)-1].indent {
				stack = stack[:len(stack)-1]
			}
			outer := 0
			if len(stack) > 0 {
				outer = stack[len(stack)-1].hang
			}
			marker := it.marker
			if marker == "-" || marker == "*" || marker == "+" {
				marker = "•"
			}
			lead := strings.Repeat(" ", min(outer, p.width/2)) + marker + " "
			hang := strings.Repeat(" ", runewidth.StringWidth(lead))
			stack = append(stack, level{it.indent, len(hang)})
			b.WriteString(p.wrap(p.joined(it.text, 0), lead, hang) + "\n")
		}
		items = nil
	}
	for ; i < len(lines); i++ {
		l := lines[i]
		if m := re.item.FindStringSubmatch(l); m != nil && !re.rule.MatchString(l) {
			items = append(items, item{indent: len(m[1]), marker: m[2], text: []string{m[3]}})
			continue
		}
		if strings.TrimSpace(l) == "" {
			// A blank line ends the list unless an item follows.
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && re.item.MatchString(lines[j]) && !re.rule.MatchString(lines[j]) {
				i = j - 1
				continue
			}
			break
		}
		if re.fence.MatchString(l) || re.heading.MatchString(l) || re.rule.MatchString(l) || strings.HasPrefix(strings.TrimLeft(l, " "), ">") {
			break
		}
		last := &items[len(items)-1]
		last.text = append(last.text, l)
	}
	flush()
	p.block(strings.TrimSuffix(b.String(), "\n"))
	return i
}

// table renders a table whose header is at i and separator at i+1, with
// its columns aligned as the separator says.
func (p *printer) table(lines []string, i int) int {
	header := cells(lines[i])
	var align []byte
	for _, c := range cells(lines[i+1]) {
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			align = append(align, 'c')
		case strings.HasSuffix(c, ":"):
			align = append(align, 'r')
		default:
			align = append(align, 'l')
		}
	}
	rows := [][]string{header}
	for i += 2; i < len(lines) && !startsBlock(lines[i]); i++ {
		rows = append(rows, cells(lines[i]))
	}
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	rendered := make([][]string, len(rows))
	widths := make([]int, n)
	cellWidths := make([][]int, len(rows))
	for ri, r := range rows {
		rendered[ri] = make([]string, n)
		cellWidths[ri] = make([]int, n)
		for c := range n {
			var text string
			if c < len(r) {
				text = r[c]
			}
			a := attr(0)
			if ri == 0 {
				a = bold
			}
			var s strings.Builder
			for _, sg := range p.inline(text, a) {
				s.WriteString(p.paint(sg.text, sg.a))
				cellWidths[ri][c] += runewidth.StringWidth(sg.text)
			}
			rendered[ri][c] = s.String()
			widths[c] = max(widths[c], cellWidths[ri][c])
		}
	}
	var b strings.Builder
	for ri, r := range rendered {
		for c, cell := range r {
			if c > 0 {
				b.WriteString(p.paint(" │ ", faint))
			}
			pad := widths[c] - cellWidths[ri][c]
			switch {
			case c < len(align) && align[c] == 'r':
				b.WriteString(strings.Repeat(" ", pad) + cell)
			case c < len(align) && align[c] == 'c':
				b.WriteString(strings.Repeat(" ", pad/2) + cell + strings.Repeat(" ", pad-pad/2))
			case c == len(r)-1:
				b.WriteString(cell)
			default:
				b.WriteString(cell + strings.Repeat(" ", pad))
			}
		}
		b.WriteString("\n")
		if ri == 0 {
			for c, w := range widths {
				if c > 0 {
					b.WriteString(p.paint("─┼─", faint))
				}
				b.WriteString(p.paint(strings.Repeat("─", w), faint))
			}
			b.WriteString("\n")
		}
	}
	p.block(strings.TrimRight(b.String(), "\n"))
	return i
}

// cells splits a table row at the pipes not escaped or in code.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	var cur strings.Builder
	inCode := false
	for i := 0; i < len(row); i++ {
		switch c := row[i]; {
		case c == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case c == '`':
			inCode = !inCode
			cur.WriteByte(c)
		case c == '|' && !inCode:
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}
