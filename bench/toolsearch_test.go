//go:build synth

package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/toolreg/toolreg/deferred"
)

// searchQueries are what a model searches the synthetic toolboxes for.
var searchQueries = []string{"list the open tickets", "send an email", "convert the weather forecast", "find invoices of last month", "count my contacts"}

// TestToolSearchBytes measures the tool definitions sent with each request
// (the JSON of the tools array) for the synthetic toolboxes, with every
// tool offered and with tool search: search_tools alone before any
// search, and after one search, which loads at most five tools. With -v it
// prints the table of bench/results/toolsearch.md; it fails if search
// saves less than 20 times at 1,000 tools.
func TestToolSearchBytes(t *testing.T) {
	size := func(v any) int {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	out := "| tools | every tool | search_tools only | after one search (loaded) | ratio after one search |\n|---:|---:|---:|---:|---:|\n"
	for _, box := range boxes {
		reg := box.toolbox()
		all := size(reg.Specs())
		var before, after, loaded int
		for _, q := range searchQueries {
			d, err := deferred.New(reg, deferred.Options{})
			if err != nil {
				t.Fatal(err)
			}
			before = size(d.Specs())
			d.Search(q)
			after += size(d.Specs())
			loaded += len(d.Loaded())
		}
		after /= len(searchQueries)
		ratio := float64(all) / float64(after)
		out += fmt.Sprintf("| %d | %d | %d | %d (%.1f tools) | %.1f× |\n", box.n, all, before, after, float64(loaded)/float64(len(searchQueries)), ratio)
		if box.n == 1000 && ratio < 20 {
			t.Errorf("at 1,000 tools search sends %d bytes of %d: %.1f× fewer, want at least 20×", after, all, ratio)
		}
	}
	t.Logf("\n%s", out)
	if path := os.Getenv("TOOLSEARCH_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkToolSearch is one search of each synthetic toolbox with its
// generated index, as search_tools runs it: ns/op is the time of one
// query.
func BenchmarkToolSearch(b *testing.B) {
	for _, box := range boxes {
		reg := box.toolbox()
		reg.Search("warm up", 1)
		b.Run(fmt.Sprint(box.n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				reg.Search(searchQueries[i%len(searchQueries)], 5)
				i++
			}
		})
	}
}
