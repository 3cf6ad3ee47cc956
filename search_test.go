package toolreg

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/toolsearch"
)

// TestGeneratedSearchIndex: the index toolgen wrote is the one the same
// code builds at run time from the table, and it passes its check.
func TestGeneratedSearchIndex(t *testing.T) {
	if err := genSearch.Check(); err != nil {
		t.Fatal(err)
	}
	docs := make([]toolsearch.Doc, len(genEntries))
	for i, e := range genEntries {
		docs[i] = toolsearch.Doc{ID: e.ID, Name: e.Name, Description: e.Description, Params: toolsearch.ParamsOf(e.Parameters)}
	}
	want, err := toolsearch.Build(docs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, &genSearch); diff != "" {
		t.Errorf("generated index (-built +generated):\n%s", diff)
	}
}

func TestToolboxSearch(t *testing.T) {
	reg := Toolbox()
	for q, want := range map[string]string{
		"will it rain in Paris this weekend":        "weather",
		"how many words are in this paragraph":      "word_count",
		"what's 17% of 2,340":                       "calculator",
		"is my disk almost full":                    "disk_usage",
		"is example.com down right now":             "ping_url",
		"what is the date today in Tokyo":           "now",
		"look up the latest news on the Go release": "web_search",
	} {
		got := reg.Search(q, 1)
		if len(got) != 1 || got[0].Entry.Name != want {
			t.Errorf("Search(%q) = %v, want %s first", q, got, want)
		}
	}
}
