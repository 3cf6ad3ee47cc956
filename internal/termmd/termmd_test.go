package termmd

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/mattn/go-runewidth"
)

func TestRenderPlain(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"paragraph joined and wrapped at the width",
			"one two three four five six seven eight nine ten eleven twelve\nthirteen",
			"one two three four five six seven eight nine ten eleven\ntwelve thirteen"},
		{"a word wider than a line stands alone",
			"see https://example.com/a/very/long/path/that/does/not/fit/in/sixty/columns/at/all end",
			"see\nhttps://example.com/a/very/long/path/that/does/not/fit/in/sixty/columns/at/all\nend"},
		{"hard breaks", "one  \ntwo\\\nthree", "one\ntwo\nthree"},
		{"headings", "# One\n## Two ##\nThree\n=====\nFour\n---", "# One\n\n## Two\n\n# Three\n\n## Four"},
		{"emphasis, code, strike", "**b** *i* ***bi*** __b__ _i_ `c` ``a`b`` ~~s~~",
			"b i bi b i c a`b s"},
		{"unmatched delimiters are text", "2 * 3 * 4, **open, `tick, ~one~, a_b_c, _x",
			"2 * 3 * 4, **open, `tick, ~one~, a_b_c, _x"},
		{"escapes", `\*not\* \_em\_ \\`, `*not* _em_ \`},
		{"links", "[docs](https://d.example) [same](same) <https://a.example> ![img](p.png) [no link]",
			"docs (https://d.example) same https://a.example img (p.png)\n[no link]"},
		{"bullets nest under their parent's text",
			"- a\n- b\n  - c\n    more\n- d",
			"• a\n• b\n  • c more\n• d"},
		{"numbers kept, items split by blank lines stay one list",
			"1. a\n\n2. b\n   - c\n10) d",
			"1. a\n2. b\n   • c\n10) d"},
		{"a list item wraps under its text",
			"- one two three four five six seven eight nine ten eleven twelve",
			"• one two three four five six seven eight nine ten eleven\n  twelve"},
		{"quote", "> quoted *text*\nlazy line\n\nafter", "│ quoted text lazy line\n\nafter"},
		{"code block kept verbatim, indented",
			"```go\nfunc f() {\n\treturn  *x*\n}\n```\nafter",
			"  func f() {\n      return  *x*\n  }\n\nafter"},
		{"an unclosed code block runs to the end", "~~~\na\n\nb", "  a\n  \n  b"},
		{"a longer fence is closed by a longer run only", "````\n```\n````", "  ```"},
		{"rule", "a\n\n***\n\nb", "a\n\n────────────────────────────────────────\n\nb"},
		{"table aligned", "| Name | Size |\n|:-----|-----:|\n| a | 12 |\n| `bb` | 1 |",
			"Name │ Size\n─────┼─────\na    │   12\nbb   │    1"},
		{"table with a missing cell and an escaped pipe", "a|b\n-|-\n1\\|2|\n3",
			"a   │ b\n────┼──\n1|2 │ \n3   │ "},
		{"a pipe in text is no table", "a | b\nc", "a | b c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Renderer{Width: 60, Style: Plain}.Render(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Render(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestRenderColours(t *testing.T) {
	for _, tc := range []struct {
		style Style
		in    string
		want  string
	}{
		{Dark, "**b**", "\x1b[1mb\x1b[0m"},
		{Dark, "*i*", "\x1b[3mi\x1b[0m"},
		{Dark, "~~s~~", "\x1b[9ms\x1b[0m"},
		{Dark, "`c`", "\x1b[38;5;203;48;5;236mc\x1b[0m"},
		{Light, "`c`", "\x1b[38;5;160;48;5;254mc\x1b[0m"},
		{Dark, "# H", "\x1b[1;38;5;39mH\x1b[0m"},
		{Light, "# H", "\x1b[1;38;5;27mH\x1b[0m"},
		{Dark, "[l](u)", "\x1b[4;38;5;44ml\x1b[0m \x1b[38;5;243m(u)\x1b[0m"},
		{Dark, "plain", "plain"},
	} {
		if got := (Renderer{Width: 80, Style: tc.style}).Render(tc.in); got != tc.want {
			t.Errorf("Render(%q) in style %d: %q, want %q", tc.in, tc.style, got, tc.want)
		}
	}
}

func TestParseStyle(t *testing.T) {
	for in, want := range map[string]Style{"": Dark, "dark": Dark, "Light": Light, "notty": Plain, "plain": Plain, " ascii ": Plain} {
		if got, ok := ParseStyle(in); got != want || !ok {
			t.Errorf("ParseStyle(%q) = %d, %v; want %d, true", in, got, ok, want)
		}
	}
	if got, ok := ParseStyle("dracula"); ok || got != Dark {
		t.Errorf("ParseStyle(dracula) = %d, %v; want Dark, false", got, ok)
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// checkOutput fails when out holds a control character other than a
// newline outside the colour sequences the renderer writes itself.
func checkOutput(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("Render(%q) is not valid UTF-8: %q", in, out)
	}
	for _, r := range sgr.ReplaceAllString(out, "") {
		// The explicit embeddings, overrides and isolates of
		// bidirectional text reorder what a terminal shows after them.
		bidi := r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
		if r != '\n' && isControl(r) || bidi {
			t.Fatalf("Render(%q) passes on the control character %U: %q", in, r, out)
		}
	}
}

// TestControlCharactersNeverReachTheTerminal: a prompt-injected model's
// escape sequences (title, clipboard, cursor movement, a bell, C1
// controls) are dropped, in every kind of block, the words kept.
func TestControlCharactersNeverReachTheTerminal(t *testing.T) {
	for _, in := range []string{
		"title \x1b]0;pwned\x07 done",
		"clip \x1b]52;c;ZWNobyBoaQ==\x1b\\ done",
		"- item \x1b[2J\x1b[H\n- \x9b31m",
		"```\ncode \x1b[31m red\r\n```",
		"| a\x1b[8m | b |\n|---|---|\n| \x07 | \u2028 |",
		"> quote \x1b(0 lines\x08\x7f",
		"`code \x1b[1m`",
		"`\xc2`\x82 and a lone \x9b31m byte",
		"run `rm -rf ~ #\u202e\u2066 hsalf\u2069` done \u202a\u202b\u202c\u202d\u2067\u2068",
	} {
		for _, st := range []Style{Dark, Light, Plain} {
			out := Renderer{Width: 40, Style: st}.Render(in)
			checkOutput(t, in, out)
			if !strings.Contains(out, "done") && strings.Contains(in, "done") {
				t.Errorf("Render(%q) lost a word: %q", in, out)
			}
		}
	}
}

// TestWidthHeld: no line of wrapped text passes the width unless it is
// one word.
func TestWidthHeld(t *testing.T) {
	in := strings.Repeat("word **bold words** `code span` [a link](https://example.com) 日本語の文 ", 20)
	for _, w := range []int{19, 20, 21, 33, 80} {
		out := Renderer{Width: w, Style: Dark}.Render(in + "\n\n- " + in + "\n\n> " + in)
		for _, line := range strings.Split(sgr.ReplaceAllString(out, ""), "\n") {
			if runewidth.StringWidth(line) > max(w, 20) && len(strings.Fields(strings.TrimLeft(line, "•│ "))) > 1 {
				t.Errorf("width %d: the line %q is %d columns", w, line, runewidth.StringWidth(line))
			}
		}
	}
}

// FuzzRender: any text renders without a panic or a control character,
// and every word of a text without Markdown's punctuation is kept in
// order.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"# h\n\n- a\n  - b\n\n```\nx\n```\n| a | b |\n|-|-|\n|c|d|", "**a *b* c**", "[a](b", "> > x", "1. a\n   ```\n   b\n   ```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Renderer{Width: 30, Style: Dark}.Render(in)
		checkOutput(t, in, out)
		if strings.ContainsAny(in, "#*_`~[]()<>|\\-+=!.:0123456789") {
			return
		}
		want := strings.Fields(sanitize(in))
		got := strings.Fields(sgr.ReplaceAllString(out, ""))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Render(%q) words (-want +got):\n%s", in, diff)
		}
	})
}

// TestDeepQuotesAreText: quotes nest to maxQuotes, past it they are
// text, so a hostile answer of nested quotes costs what text does.
func TestDeepQuotesAreText(t *testing.T) {
	for _, depth := range []int{maxQuotes - 1, maxQuotes, maxQuotes + 1, 5000} {
		out := Renderer{Width: 200, Style: Plain}.Render(strings.Repeat("> ", depth) + "x")
		bars := min(depth, maxQuotes)
		want := strings.Repeat("│ ", bars) + strings.Repeat("> ", depth-bars) + "x"
		if depth == 5000 {
			want = want[:len(strings.Repeat("│ ", bars))] + "> > >"
			if !strings.HasPrefix(out, want) {
				t.Errorf("%d quotes: %q…, want it to begin %q", depth, out[:min(len(out), 60)], want)
			}
			continue
		}
		if out != want {
			t.Errorf("%d quotes: %q, want %q", depth, out, want)
		}
	}
}

// BenchmarkRender renders a typical answer, and texts made to cost more
// than their length: unmatched emphasis, links and quotes.
func BenchmarkRender(b *testing.B) {
	answer := "# Plan\n\nThe **first** step reads `go.mod`; see [the docs](https://go.dev/doc).\n\n" +
		"1. Read the file\n2. Count *words*\n   - skip code\n\n```go\nn := len(strings.Fields(s))\n```\n\n" +
		"| file | words |\n|---|---:|\n| a.md | 120 |\n| b.md | 88 |\n\n> Done.\n"
	for _, bc := range []struct{ name, text string }{
		{"answer", strings.Repeat(answer, 10)},
		{"emphasis", strings.Repeat("**a ", 5000)},
		{"links", strings.Repeat("![", 5000)},
		{"quotes", strings.Repeat("> ", 5000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				Renderer{Width: 80}.Render(bc.text)
			}
		})
	}
}

// TestAutolinksLinear: each '<' of a paragraph is looked at up to the
// first space, '<' or '>' after it, not to the end of the paragraph: a
// paragraph of "<a " repeated cost the square of its length (1.6 MB took
// 12 s; an answer may be 16 MiB streamed, 64 MiB whole). Autolinks are
// found as before.
func TestAutolinksLinear(t *testing.T) {
	in := strings.Repeat("<a ", 10000) + "<b" + strings.Repeat("x", 1000)
	p := &printer{width: 80}
	p.inline(in, 0)
	if p.looked > len(in) {
		t.Errorf("%d bytes looked at for autolinks in a text of %d", p.looked, len(in))
	}
	got := p.inline("see <https://a.example/x> and <mailto:b@c.example>, not <https://a b> nor <ftp://d> nor <https://e", 0)
	want := []seg{{"see ", 0}, {"https://a.example/x", link}, {" and ", 0}, {"mailto:b@c.example", link}, {", not <https://a b> nor <ftp://d> nor <https://e", 0}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(seg{})); diff != "" {
		t.Errorf("segments (-want +got):\n%s", diff)
	}
}
