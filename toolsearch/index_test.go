package toolsearch

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"read_text_file", []string{"read", "text", "fil"}},
		{"Read a text file", []string{"read", "text", "fil"}},
		{"readTextFile", []string{"read", "text", "fil"}},
		{"HTTPServer", []string{"http", "server"}},
		{"getURLs", []string{"get", "url"}},
		{"URLsList", []string{"url", "list"}},
		{"HTTPSession", []string{"http", "session"}},
		{"list-directory-with-sizes", []string{"list", "directory", "siz"}},
		{"utf8 base64 sha256", []string{"utf8", "base64", "sha256"}},
		{"Entries, queries; matches!", []string{"entry", "query", "match"}},
		{"the of and to", nil},
		{"", nil},
		{"Größe über Straßen", []string{"größe", "über", "straßen"}},
		{"created creating creates create", []string{"creat", "creat", "creat", "creat"}},
		{"running runs ran", []string{"run", "run", "ran"}},
		{"meetings meeting meet settings", []string{"meet", "meet", "meet", "set"}},
		{"needs fixes", []string{"need", "fix"}},
		{"copied copies copy", []string{"copy", "copy", "copy"}},
		{"installed passing boxes classes", []string{"install", "pass", "box", "class"}},
	} {
		if diff := cmp.Diff(tc.want, Tokens(tc.in)); diff != "" {
			t.Errorf("Tokens(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestStemShortAndForeign(t *testing.T) {
	for _, w := range []string{"", "a", "is", "ran", "bus", "naïve", "x86s"} {
		if got := Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want it unchanged", w, got)
		}
	}
	// At the length limits of each suffix.
	for in, want := range map[string]string{
		"ties": "tie", "lies": "lie", "flies": "fly", // ies needs 5 characters
		"ring": "ring", "sing": "sing", "bring": "bring", "doing": "doing", "seeing": "see",
		"bed": "bed", "used": "used", "fixed": "fix", "need": "need",
		"free": "free", "tree": "tree", "file": "fil", "use": "use",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

var sample = []Doc{
	{ID: "read_text_file", Name: "read_text_file", Description: "Read the complete contents of a file as text.", Params: []Param{{"path", "Path of the file"}}},
	{ID: "write_file", Name: "write_file", Description: "Create a new file or overwrite an existing one with new content.", Params: []Param{{"path", "Path of the file"}, {"content", "The text to write"}}},
	{ID: "weather", Name: "weather", Description: "Get the current weather and a forecast for a city.", Params: []Param{{"city", "City name, for example Berlin"}}},
	{ID: "delete_file", Name: "delete_file", Description: "Remove a file from the disk.", Params: []Param{{"path", "Path of the file"}}},
	{ID: "now", Name: "now", Description: "Tell the current date and time in a time zone."},
}

func keys(docs []Doc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Name
	}
	return out
}

func search(t *testing.T, docs []Doc, q string, k int) []Hit {
	t.Helper()
	x, err := Build(docs)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Check(); err != nil {
		t.Fatal(err)
	}
	s, err := NewSearcher(keys(docs), x)
	if err != nil {
		t.Fatal(err)
	}
	return s.Search(q, k, nil)
}

func names(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Key)
	}
	return out
}

func TestSearch(t *testing.T) {
	for _, tc := range []struct {
		q    string
		k    int
		want []string
	}{
		{"read a text file", 1, []string{"read_text_file"}},
		{"what's the weather in Paris tomorrow", 1, []string{"weather"}},
		{"erase a file", 1, []string{"delete_file"}}, // erase is related to remove
		{"save a file", 1, []string{"write_file"}},   // save is related to write
		{"what time is it", 1, []string{"now"}},
		{"file", 5, []string{"delete_file", "read_text_file", "write_file"}},
		{"file", 2, []string{"delete_file", "read_text_file"}},
		{"the of", 5, nil},
		{"quantum chromodynamics", 5, nil},
		{"file", 0, nil},
		{"", 3, nil},
	} {
		got := names(search(t, sample, tc.q, tc.k))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Search(%q, %d) (-want +got):\n%s", tc.q, tc.k, diff)
		}
	}
}

// Equal scores are ordered by key, whatever the order of the documents.
func TestSearchTies(t *testing.T) {
	docs := []Doc{
		{ID: "zc", Name: "zc", Description: "Alpha."},
		{ID: "za", Name: "za", Description: "Alpha."},
		{ID: "zb", Name: "zb", Description: "Alpha."},
	}
	got := search(t, docs, "alpha", 3)
	if diff := cmp.Diff([]string{"za", "zb", "zc"}, names(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got[0].Score != got[2].Score || got[0].Score <= 0 {
		t.Errorf("scores %v, want equal and positive", got)
	}
}

// A searcher over several segments ranks and scores as one over a single
// index of the same documents.
func TestSegments(t *testing.T) {
	whole, err := Build(sample)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := NewSearcher(keys(sample), whole)
	a, _ := Build(sample[:2])
	b, _ := Build(sample[2:4])
	c, _ := Build(sample[4:])
	three, err := NewSearcher(keys(sample), a, nil, b, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"read a file", "weather in Berlin", "time zone", "content path"} {
		want := one.Search(q, 5, nil)
		got := three.Search(q, 5, nil)
		if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
			t.Errorf("%q (-one +segments):\n%s", q, diff)
		}
	}
	if _, err := NewSearcher([]string{"x"}, a); err == nil {
		t.Error("NewSearcher with too few keys: no error")
	}
}

func TestKeep(t *testing.T) {
	x, _ := Build(sample)
	s, _ := NewSearcher(keys(sample), x)
	got := s.Search("file", 5, func(d int) bool { return d != 3 })
	if diff := cmp.Diff([]string{"read_text_file", "write_file"}, names(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCheck(t *testing.T) {
	good, _ := Build(sample)
	for name, mut := range map[string]func(x *Index){
		"unsorted terms": func(x *Index) { x.Terms[0], x.Terms[1] = x.Terms[1], x.Terms[0] },
		"short ends":     func(x *Index) { x.Ends = x.Ends[1:] },
		"end past":       func(x *Index) { x.Ends[len(x.Ends)-1]++ },
		"end backwards":  func(x *Index) { x.Ends[1] = 0 },
		"unowned":        func(x *Index) { x.Ends[len(x.Ends)-1]-- },
		"unknown doc":    func(x *Index) { x.Lens = x.Lens[:1] },
	} {
		x := &Index{Terms: append([]string{}, good.Terms...), Ends: append([]uint32{}, good.Ends...),
			Postings: append([]uint32{}, good.Postings...), Lens: append([]uint32{}, good.Lens...)}
		mut(x)
		if err := x.Check(); err == nil {
			t.Errorf("%s: Check passed", name)
		}
	}
	if err := good.Check(); err != nil {
		t.Error(err)
	}
	if err := (*Index)(nil).Check(); err != nil {
		t.Error(err)
	}
}

func TestBuildLimit(t *testing.T) {
	if _, err := Build(make([]Doc, MaxDocs+1)); err == nil {
		t.Error("no error past MaxDocs")
	}
	x, err := Build(make([]Doc, MaxDocs))
	if err != nil || x.Len() != MaxDocs {
		t.Errorf("at MaxDocs: %v, %d documents", err, x.Len())
	}
}

func TestParamsOf(t *testing.T) {
	got := ParamsOf(`{"type":"object","properties":{"path":{"type":"string","description":"Where"},"edits":{"type":"array","items":{"type":"object","properties":{"oldText":{"description":"Text to find"}}}},"opts":{"type":"object","properties":{"dryRun":{"description":"Preview"}}}}}`)
	want := []Param{{"edits", ""}, {"oldText", "Text to find"}, {"opts", ""}, {"dryRun", "Preview"}, {"path", "Where"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := ParamsOf("not json"); got != nil {
		t.Errorf("ParamsOf(bad) = %v", got)
	}
}

func TestRelated(t *testing.T) {
	got := Related("Deleting")
	if diff := cmp.Diff([]string{"remov", "eras", "drop"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := Related("zebra"); got != nil {
		t.Errorf("Related(zebra) = %v", got)
	}
}

func ExampleSearcher_Search() {
	docs := []Doc{
		{ID: "read_text_file", Name: "read_text_file", Description: "Read the complete contents of a file as text."},
		{ID: "weather", Name: "weather", Description: "Get the current weather and a forecast for a city."},
	}
	x, _ := Build(docs)
	s, _ := NewSearcher([]string{"read_text_file", "weather"}, x)
	for _, h := range s.Search("will it rain in Oslo? check the forecast", 5, nil) {
		fmt.Println(h.Key)
	}
	// Output: weather
}
