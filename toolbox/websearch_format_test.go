package toolbox

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestWebsearchCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<strong>Brave</strong> <strong>Search</strong>", "Brave Search"},
		{"go<strong>lang</strong>", "golang"},
		{"first line<br>second line", "first line second line"},
		{"<p>one</p><p>two</p>", "one two"},
		{"a < b and c > d", "a < b and c > d"},
		{"x<3", "x<3"},
		{"fish &amp; chips &#x27;n&#39; &lt;b&gt;peas&lt;/b&gt;", "fish & chips 'n' <b>peas</b>"},
		{"  spaced \n\t out  ", "spaced out"},
		{"<!-- note -->kept", "kept"},
		{`<a href="https://example.com/?a=1&b=2">link</a> text`, "link text"},
		{"unclosed <strong tag", "unclosed <strong tag"},
	}
	for _, tt := range tests {
		if got := websearchCleanText(tt.in); got != tt.want {
			t.Errorf("websearchCleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHTTPXTruncate(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"cut between words here", 15, "cut between…"},
		{"ünïcödé ünïcödé", 10, "ünïcödé…"},
		{"averyveryverylongwordwithoutspaces", 10, "averyvery…"},
	}
	for _, tt := range tests {
		got := httpxTruncate(tt.in, tt.limit)
		if got != tt.want {
			t.Errorf("httpxTruncate(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
		if n := utf8.RuneCountInString(got); n > tt.limit {
			t.Errorf("httpxTruncate(%q, %d) has %d runes", tt.in, tt.limit, n)
		}
	}
}

func TestWebsearchFormatLimits(t *testing.T) {
	long := strings.Repeat("word ", 200) // 1000 characters
	var ans websearchAnswer
	for i := 1; i <= 10; i++ {
		ans.Results = append(ans.Results, websearchResult{
			Title:   fmt.Sprintf("Result %d <em>%s</em>", i, long),
			URL:     fmt.Sprintf("https://example.com/%d", i),
			Snippet: long,
		})
	}
	got := websearchFormat("q", "Tavily", ans, 10)
	if n := utf8.RuneCountInString(got); n > websearchMaxOutput {
		t.Errorf("answer has %d characters, want at most %d", n, websearchMaxOutput)
	}
	lines := strings.Split(got, "\n")
	last := lines[len(lines)-1]
	shown := strings.Count(got, "\n   https://example.com/")
	if want := fmt.Sprintf("[Cut: %d of 10 results shown to keep this answer under 4000 characters.]", shown); last != want {
		t.Errorf("last line = %q, want %q", last, want)
	}
	if shown < 5 || shown >= 10 {
		t.Errorf("%d results shown; want most of them, but not all", shown)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "   https://") {
			continue
		}
		if n := utf8.RuneCountInString(strings.TrimSpace(strings.TrimLeft(l, "0123456789."))); n > websearchMaxSnippet {
			t.Errorf("line of %d characters, want titles and snippets of at most %d: %.40q…", n, websearchMaxSnippet, l)
		}
	}
}

func TestWebsearchFormatMaxAndSkips(t *testing.T) {
	ans := websearchAnswer{
		Results: []websearchResult{
			{Title: "no URL", URL: " "},
			{Title: "", URL: "https://a.example/", Snippet: ""},
			{Title: "B", URL: "https://b.example/", Snippet: "about <b>b</b>"},
			{Title: "C", URL: "https://c.example/", Snippet: "about c"},
		},
		Note: "some engines failed",
	}
	got := websearchFormat("letters", "SearXNG", ans, 2)
	want := strings.Join([]string{
		`Web results for "letters" (SearXNG):`,
		"1. (untitled)",
		"   https://a.example/",
		"2. B",
		"   https://b.example/",
		"   about b",
		"Note: some engines failed",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("websearchFormat (-want +got):\n%s", diff)
	}
}
