package toolbox

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWebsearchFormatFirstResultAlwaysShown formats a result after a
// header that alone fills the answer's room: the first result is shown all
// the same, and nothing is reported cut.
func TestWebsearchFormatFirstResultAlwaysShown(t *testing.T) {
	q := strings.Repeat("q", websearchMaxOutput)
	ans := websearchAnswer{Results: []websearchResult{{Title: "T", URL: "https://e.example/", Snippet: "s"}}}
	want := `Web results for "` + q + `" (S):` + "\n1. T\n   https://e.example/\n   s"
	if diff := cmp.Diff(want, websearchFormat(q, "S", ans, 5)); diff != "" {
		t.Errorf("websearchFormat (-want +got):\n%s", diff)
	}
}

// TestWebsearchStripTagsEdges strips tags whose names begin or continue
// with the first and last letters and digits, keeps a '<' followed by the
// characters next to those ranges, and keeps a '<' at the very end.
func TestWebsearchStripTagsEdges(t *testing.T) {
	tests := []struct{ in, want string }{
		// A '<' at the end opens nothing.
		{"a <", "a <"},
		{"<", "<"},
		// A tag opens with a letter, '/' or '!': A, Z, a and z are letters;
		// @, [, ` and { are the characters next to them.
		{"x<A>y", "xy"}, // "a" is inline
		{"x<Z>y", "x y"},
		{"x<z>y", "x y"},
		{"x<a>y", "xy"},
		{"x<@>y", "x<@>y"},
		{"x<[>y", "x<[>y"},
		{"x<`>y", "x<`>y"},
		{"x<{>y", "x<{>y"},
		// The name runs over letters and digits: b0…bZ are not the inline
		// b, so each leaves a space; b/ and "b " are b.
		{"x<b0>y", "x y"},
		{"x<b9>y", "x y"},
		{"x<bA>y", "x y"},
		{"x<bZ>y", "x y"},
		{"x<ba>y", "x y"},
		{"x<bz>y", "x y"},
		{"x<b/>y", "xy"},
		{`x<b class="k">y</b>`, "xy"},
	}
	for _, tt := range tests {
		if got := websearchCleanText(tt.in); got != tt.want {
			t.Errorf("websearchCleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWebSearchSearxngEnginePairs reads unresponsive_engines entries that
// are not [engine, error] pairs: an empty list and a bare string are left
// out of the note.
func TestWebSearchSearxngEnginePairs(t *testing.T) {
	body := `{"query": "q", "results": [{"url": "https://a.example/", "title": "A", "content": "a"}], "unresponsive_engines": [[], "bing", ["google", "timeout"]]}`
	s, _ := newSearchFake(t, "/search", httpxServeBody(http.StatusOK, "application/json", body), map[string]string{websearchSearxngEnv: "FAKE"})
	got, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := strings.Join([]string{
		`Web results for "q" (SearXNG):`,
		"1. A",
		"   https://a.example/",
		"   a",
		"Note: some of the instance's search engines did not answer (google: timeout), so results may be missing",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Execute output (-want +got):\n%s", diff)
	}
}

// TestWebSearchTavilyErrorWithoutDetail gets a JSON error body without the
// detail object: the body itself is the reason.
func TestWebSearchTavilyErrorWithoutDetail(t *testing.T) {
	s, _ := newSearchFake(t, "/search", httpxServeBody(http.StatusBadRequest, "application/json", `{"message": "Bad Request"}`),
		map[string]string{websearchTavilyKeyEnv: testTavilyKey, websearchTavilyURLEnv: "FAKE"})
	_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
	checkStatusError(t, err, `searching the web for "q": Tavily answered HTTP 400 Bad Request: {"message": "Bad Request"}`, http.StatusBadRequest)
}

// TestWebSearchArgumentLimits accepts a query of exactly 400 characters and
// max_results of 1 and of 10, and sends them as they are.
func TestWebSearchArgumentLimits(t *testing.T) {
	long := strings.Repeat("x", websearchMaxQuery)
	for _, tc := range []struct {
		args WebSearchArgs
		want url.Values
	}{
		{WebSearchArgs{Query: long}, url.Values{"q": {long}, "count": {"5"}}},
		{WebSearchArgs{Query: "q", MaxResults: 1}, url.Values{"q": {"q"}, "count": {"1"}}},
		{WebSearchArgs{Query: "q", MaxResults: 10}, url.Values{"q": {"q"}, "count": {"10"}}},
	} {
		s, f := newSearchFake(t, "/res/v1/web/search", httpxServeFixture(t, "websearch", "brave_results.json", http.StatusOK),
			map[string]string{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: "FAKE"})
		if _, err := s.Execute(context.Background(), tc.args); err != nil {
			t.Errorf("Execute(%.20q, %d): %v", tc.args.Query, tc.args.MaxResults, err)
			continue
		}
		var got []url.Values
		for _, r := range f.requests() {
			got = append(got, r.Query)
		}
		if diff := cmp.Diff([]url.Values{tc.want}, got); diff != "" {
			t.Errorf("Execute(%.20q, %d) queries (-want +got):\n%s", tc.args.Query, tc.args.MaxResults, diff)
		}
	}
}
