package toolsearch

import (
	"fmt"
	"testing"
)

// thousand returns 1,000 tools: the evaluation set's, then synthetic ones
// named and described as bench/cmd/synth names them (a verb and a noun),
// with its parameters.
func thousand(t testing.TB) []Doc {
	docs, _ := loadEval(t)
	verbs := []string{"get", "list", "find", "create", "update", "delete", "search", "fetch", "check", "count", "send", "read", "write", "convert", "summarize", "translate"}
	nouns := []string{"weather", "files", "issues", "users", "orders", "invoices", "calendar_events", "emails", "repositories", "tickets", "metrics", "documents", "contacts", "flights", "stock_quotes", "recipes"}
	params := []Param{{"query", "What to look for, in a few words."}, {"limit", "How many results to return, 1 to 50."}, {"order", "Order of the results."},
		{"archived", "Whether to include archived items."}, {"labels", "Labels that every result must carry."}, {"span", "Narrows the results to a time span."}}
	for i := 0; len(docs) < 1000; i++ {
		v, n := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		name := v + "_" + n
		if k := i / (len(verbs) * len(nouns)); k > 0 {
			name = fmt.Sprintf("%s_%d", name, k)
		}
		var ps []Param
		for k := range 2 + i%5 {
			ps = append(ps, params[(i+k)%len(params)])
		}
		docs = append(docs, Doc{ID: name, Name: name, Description: fmt.Sprintf("Tool %d: %s %s for the user, with the options below.", i, v, n), Params: ps})
	}
	return docs
}

// BenchmarkSearch searches 1,000 tools with the evaluation set's queries in
// turn, for the five best; ns/op is the time of one query.
func BenchmarkSearch(b *testing.B) {
	docs := thousand(b)
	_, qs := loadEval(b)
	x, err := Build(docs)
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSearcher(keys(docs), x)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Search(qs[i%len(qs)].query, 5, nil)
		i++
	}
}

// BenchmarkBuild indexes 1,000 tools, as a registry does for tools it has
// no generated index of.
func BenchmarkBuild(b *testing.B) {
	docs := thousand(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(docs); err != nil {
			b.Fatal(err)
		}
	}
}
