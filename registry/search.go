package registry

import (
	"sync"

	"github.com/toolreg/toolreg/toolsearch"
)

// Match is a tool that Search found, with its score.
type Match struct {
	Entry Entry
	// Score is the tool's BM25 score for the query; higher is better.
	Score float64
}

// Search returns at most k of the selected tools that best match query, a
// question or a few words, best first, with their scores; equal scores
// are ordered by name. A tool that shares no word with the query is never
// returned, so the result may be empty. See package toolsearch for what
// is indexed and how it is ranked.
//
// The compiled-in tools are searched in the index toolgen wrote into the
// table (Table.Search), which costs nothing to load; a table without one
// is indexed at the first search. The tools added by With were indexed
// when they were added.
func (r *Registry) Search(query string, k int) []Match {
	s := r.set.searcher()
	if s == nil {
		return nil
	}
	hits := s.Search(query, k, r.selected)
	out := make([]Match, len(hits))
	for i, h := range hits {
		out[i] = Match{Entry: r.set.entries[h.Doc], Score: h.Score}
	}
	return out
}

// docOf is what the search index knows of e.
func docOf(e *Entry) toolsearch.Doc {
	return toolsearch.Doc{ID: e.ID, Name: e.Name, Description: e.Description, Params: toolsearch.ParamsOf(e.Parameters)}
}

// buildIndex returns the search index of entries.
func buildIndex(entries []Entry) (*toolsearch.Index, error) {
	docs := make([]toolsearch.Doc, len(entries))
	for i := range entries {
		docs[i] = docOf(&entries[i])
	}
	return toolsearch.Build(docs)
}

// searchIndex is the search index of a set: segs[0] covers the table's
// entries (nil until the first search when the table came without an
// index), each later segment the tools of one call of With. The Searcher
// over them is made at the first search.
type searchIndex struct {
	segs []*toolsearch.Index
	once sync.Once
	s    *toolsearch.Searcher
}

// searcher returns the Searcher of s's entries; nil if one cannot be made
// (more tools in one segment than an index holds).
func (s *set) searcher() *toolsearch.Searcher {
	ix := s.search
	ix.once.Do(func() {
		segs := ix.segs
		if segs[0] == nil {
			x, err := buildIndex(s.entries[:s.tableLen])
			if err != nil {
				return
			}
			segs = append([]*toolsearch.Index{x}, segs[1:]...)
		}
		keys := make([]string, len(s.entries))
		for i := range s.entries {
			keys[i] = s.entries[i].Name
		}
		ix.s, _ = toolsearch.NewSearcher(keys, segs...) // the segments cover the entries
	})
	return ix.s
}
