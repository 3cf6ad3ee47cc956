package toolsearch

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The evaluation set, testdata/tools.jsonl and testdata/queries.txt: 231
// tools (this repository's, those the npm reference MCP servers
// server-everything, server-filesystem and server-memory list, and tools
// written in the style of real ones: files, git, GitHub, HTTP, calendars,
// email, messaging, databases, cloud, Kubernetes and more) and 239
// queries phrased as users ask, each labelled with the tool that answers
// it.

// The floors of TestSearchQuality: the figures measured when the set was
// written may rise, never fall below these.
const (
	minRecall5 = 0.9
	minMRR     = 0.75
)

type evalTool struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Params      []Param `json:"params"`
	Source      string  `json:"source"`
}

type evalQuery struct{ query, tool string }

func loadEval(t testing.TB) ([]Doc, []evalQuery) {
	t.Helper()
	f, err := os.Open("testdata/tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []Doc
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var et evalTool
		if err := json.Unmarshal(sc.Bytes(), &et); err != nil {
			t.Fatalf("tools.jsonl: %v", err)
		}
		docs = append(docs, Doc{ID: et.Name, Name: et.Name, Description: et.Description, Params: et.Params})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/queries.txt")
	if err != nil {
		t.Fatal(err)
	}
	var qs []evalQuery
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndex(line, " | ")
		if i < 0 {
			t.Fatalf("queries.txt: no tool in %q", line)
		}
		qs = append(qs, evalQuery{line[:i], line[i+3:]})
	}
	return docs, qs
}

// TestSearchQuality measures the ranking on the evaluation set: recall@5
// (the share of queries whose tool is among the first five) and the mean
// reciprocal rank of the right tool, and fails below the floors. With -v it
// prints the figures and each query whose tool is not first.
func TestSearchQuality(t *testing.T) {
	docs, qs := loadEval(t)
	if len(docs) < 200 || len(qs) < 200 {
		t.Fatalf("%d tools and %d queries: the set needs at least 200 of each", len(docs), len(qs))
	}
	x, err := Build(docs)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSearcher(keys(docs), x)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, d := range docs {
		known[d.Name] = true
	}
	var found5, first int
	var rr float64
	for _, q := range qs {
		if !known[q.tool] {
			t.Fatalf("query %q: no tool %q in the set", q.query, q.tool)
		}
		hits := s.Search(q.query, 10, nil)
		rank := 0
		for i, h := range hits {
			if h.Key == q.tool {
				rank = i + 1
				break
			}
		}
		if rank > 0 {
			rr += 1 / float64(rank)
		}
		if rank > 0 && rank <= 5 {
			found5++
		}
		if rank == 1 {
			first++
			continue
		}
		got := names(hits)
		if len(got) > 3 {
			got = got[:3]
		}
		t.Logf("rank %2d: %q → want %s, got %v", rank, q.query, q.tool, got)
	}
	n := float64(len(qs))
	recall5, mrr := float64(found5)/n, rr/n
	t.Logf("%d tools, %d queries: recall@1 %.3f, recall@5 %.3f, MRR %.3f", len(docs), len(qs), float64(first)/n, recall5, mrr)
	fmt.Printf("toolsearch quality: %d tools, %d queries: recall@1 %.3f, recall@5 %.3f, MRR %.3f\n", len(docs), len(qs), float64(first)/n, recall5, mrr)
	if recall5 < minRecall5 {
		t.Errorf("recall@5 %.3f, below the floor %.2f", recall5, minRecall5)
	}
	if mrr < minMRR {
		t.Errorf("MRR %.3f, below the floor %.2f", mrr, minMRR)
	}
}
