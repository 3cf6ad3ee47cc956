package registry

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolsearch"
)

func searchTable() *Table {
	run := func(context.Context, string) (string, error) { return "", nil }
	return tableOf([]Entry{
		{Name: "delete_file", Description: "Remove a file from the disk.", Parameters: `{"type":"object","properties":{"path":{"type":"string","description":"Path of the file"}}}`, Bind: runs(run), Timeout: 1, Capabilities: tool.WriteFiles},
		{Name: "read_text_file", Description: "Read the complete contents of a file as text.", Bind: runs(run), Timeout: 1},
		{Name: "weather", Description: "Get the current weather and a forecast for a city.", Parameters: `{"type":"object","properties":{"city":{"type":"string","description":"City name, for example Berlin"}}}`, Bind: runs(run), Timeout: 1},
	})
}

func matchNames(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Entry.Name)
	}
	return out
}

func TestSearch(t *testing.T) {
	built := searchTable()
	indexed := searchTable()
	docs := make([]toolsearch.Doc, len(indexed.Entries))
	for i := range indexed.Entries {
		docs[i] = docOf(&indexed.Entries[i])
	}
	x, err := toolsearch.Build(docs)
	if err != nil {
		t.Fatal(err)
	}
	indexed.Search = x
	for name, tab := range map[string]*Table{"built at the first search": built, "given by the table": indexed} {
		reg := mustNew(t, tab)
		if got := matchNames(reg.Search("read a text file", 1)); !cmp.Equal(got, []string{"read_text_file"}) {
			t.Errorf("%s: read a text file: %v", name, got)
		}
		if got := matchNames(reg.Search("will it rain in Berlin", 3)); !cmp.Equal(got, []string{"weather"}) {
			t.Errorf("%s: rain in Berlin: %v", name, got)
		}
		// The selection applies.
		if got := matchNames(reg.WithoutCapabilities(tool.WriteFiles).Search("file", 3)); !cmp.Equal(got, []string{"read_text_file"}) {
			t.Errorf("%s: without write_files: %v", name, got)
		}
		// Tools added later are found with the same ranking.
		more, err := reg.With(Entry{Name: "srv__erase_file", ID: "srv__erase_file", Description: "Erase a file for good.", Parameters: `{"type":"object"}`,
			Bind: runs(func(context.Context, string) (string, error) { return "", nil }), Timeout: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := matchNames(more.Search("erase the file", 2)); !cmp.Equal(got, []string{"srv__erase_file", "delete_file"}) {
			t.Errorf("%s: erase the file: %v", name, got)
		}
		if got := matchNames(reg.Search("erase the file", 2)); !cmp.Equal(got, []string{"delete_file", "read_text_file"}) {
			t.Errorf("%s: the first registry changed: %v", name, got)
		}
		if got := reg.Search("zebra", 3); len(got) != 0 {
			t.Errorf("%s: zebra: %v", name, got)
		}
	}
}

func TestSearchIndexChecked(t *testing.T) {
	tab := searchTable()
	x, _ := toolsearch.Build(nil)
	tab.Search = x
	if _, err := New(tab); err == nil {
		t.Error("an index of 0 documents for 3 entries: no error")
	}
	tab = searchTable()
	x, _ = toolsearch.Build(make([]toolsearch.Doc, 3))
	x.Terms = []string{"b", "a"}
	x.Ends = []uint32{0, 0}
	tab.Search = x
	if _, err := New(tab); err == nil {
		t.Error("an unsorted index: no error")
	}
}

func TestSpec(t *testing.T) {
	reg := mustNew(t, searchTable())
	s, ok := reg.Spec("weather")
	if !ok || s.Function.Name != "weather" || s.Function.Strict {
		t.Errorf("Spec(weather) = %+v, %v", s.Function, ok)
	}
	if s, ok := reg.WithStrict(true).Spec("weather"); !ok || !cmp.Equal(s, reg.WithStrict(true).Specs()[2]) {
		t.Errorf("strict Spec(weather) differs from Specs: %+v", s.Function)
	}
	if _, ok := reg.WithoutCapabilities(tool.WriteFiles).Spec("delete_file"); ok {
		t.Error("Spec of a tool left out of the selection")
	}
	if _, ok := reg.Spec("nosuch"); ok {
		t.Error("Spec of an unknown tool")
	}
}
