// Package toolsearch finds tools by what a question says: a BM25 index
// over each tool's id, name, description and parameters, compact enough
// for cmd/toolgen to write into the generated registry as Go literals, so
// that nothing is built when a program starts. The same code builds the
// index at run time for tools that join later, such as those of a mounted
// MCP server or the built-in tool that loads skills.
//
// Words are split at every character that is not a letter or a digit and
// at the case changes of identifiers, lower-cased and stemmed (see
// [Tokens]), so read_text_file matches "read a text file". A tool's name
// and id weigh three times as much as its description and its parameters'
// names, and those twice as much as the parameters' descriptions (a
// simple BM25F). A query word also finds, at a lower weight, a few common
// words of the same meaning (delete and remove, folder and directory; see
// [Related]).
//
// An [Index] is one segment of documents; a [Searcher] searches several
// as one collection, with statistics over all of them, so a segment built
// at generate time and another built at run time rank alike. Ranking is
// deterministic: equal scores are ordered by key.
package toolsearch

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Doc is what the index knows of one tool.
type Doc struct {
	ID, Name, Description string
	Params                []Param
}

// Param is one parameter of a tool: its name and description.
type Param struct {
	Name, Description string
}

// The weights of a tool's fields, in halves: a term of the name or id
// counts 6 halves (3 terms), one of the description or a parameter's
// name 2, one of a parameter's description 1.
const (
	weightName      = 6
	weightDesc      = 2
	weightParam     = 2
	weightParamDesc = 1
)

// BM25's parameters.
const (
	k1 = 1.2
	b  = 0.75
)

// Index is one segment of the index: the terms of its documents, sorted,
// each with its postings. cmd/toolgen writes one into the generated
// registry; [Build] makes one at run time. Its fields are exported for
// the generated literal; they are not meant to be read or changed by
// hand, and must not be changed once the Index is in use.
type Index struct {
	// Terms are the distinct terms, sorted.
	Terms []string
	// Ends[i] is the end of the postings of Terms[i] in Postings; they
	// begin at Ends[i-1] (0 for the first).
	Ends []uint32
	// Postings hold, for each term, the documents it occurs in, in
	// ascending order: the document's number times 65536 plus the term's
	// weighted frequency in it, in halves (see the weights above), at
	// most 65535.
	Postings []uint32
	// Lens are the documents' weighted lengths, in halves; their number
	// is the number of documents. A document is numbered by its position
	// here.
	Lens []uint32
}

// Len returns the number of documents in x; a nil Index has none.
func (x *Index) Len() int {
	if x == nil {
		return 0
	}
	return len(x.Lens)
}

// MaxDocs is the most documents one Index holds.
const MaxDocs = 1 << 16

// Build returns the index of docs; document i is docs[i]. It fails only
// for more than MaxDocs documents.
func Build(docs []Doc) (*Index, error) {
	if len(docs) > MaxDocs {
		return nil, fmt.Errorf("toolsearch: %d documents, more than the %d of one index", len(docs), MaxDocs)
	}
	freq := map[string][]uint32{} // term → postings being built
	x := &Index{Lens: make([]uint32, len(docs))}
	for i, d := range docs {
		tf := map[string]uint32{}
		var total uint32
		add := func(s string, w uint32) {
			for _, t := range Tokens(s) {
				tf[t] += w
				total += w
			}
		}
		add(d.Name, weightName)
		if d.ID != d.Name {
			add(d.ID, weightName)
		}
		add(d.Description, weightDesc)
		for _, p := range d.Params {
			add(p.Name, weightParam)
			add(p.Description, weightParamDesc)
		}
		x.Lens[i] = total
		for t, f := range tf {
			freq[t] = append(freq[t], uint32(i)<<16|min(f, 0xffff))
		}
	}
	x.Terms = make([]string, 0, len(freq))
	for t := range freq {
		x.Terms = append(x.Terms, t)
	}
	slices.Sort(x.Terms)
	x.Ends = make([]uint32, len(x.Terms))
	for i, t := range x.Terms {
		p := freq[t]
		slices.Sort(p) // by document, as each is added once
		x.Postings = append(x.Postings, p...)
		x.Ends[i] = uint32(len(x.Postings))
	}
	return x, nil
}

// Check reports what is wrong with x, or nil: terms not sorted or
// repeated, ends out of order or past the postings, a posting of a
// document x does not have. A generated index always passes.
func (x *Index) Check() error {
	if x == nil {
		return nil
	}
	if len(x.Ends) != len(x.Terms) {
		return fmt.Errorf("toolsearch: %d terms and %d ends", len(x.Terms), len(x.Ends))
	}
	if len(x.Lens) > MaxDocs {
		return fmt.Errorf("toolsearch: %d documents, more than %d", len(x.Lens), MaxDocs)
	}
	var start uint32
	for i, t := range x.Terms {
		if i > 0 && x.Terms[i-1] >= t {
			return fmt.Errorf("toolsearch: term %q follows %q", t, x.Terms[i-1])
		}
		end := x.Ends[i]
		if end < start || int(end) > len(x.Postings) {
			return fmt.Errorf("toolsearch: the postings of %q end at %d, out of %d..%d", t, end, start, len(x.Postings))
		}
		for _, p := range x.Postings[start:end] {
			if int(p>>16) >= len(x.Lens) {
				return fmt.Errorf("toolsearch: term %q is in document %d of %d", t, p>>16, len(x.Lens))
			}
		}
		start = end
	}
	if int(start) != len(x.Postings) {
		return fmt.Errorf("toolsearch: %d postings, of which %d belong to a term", len(x.Postings), start)
	}
	return nil
}

// postingRange returns where the postings of term t are in x.Postings;
// an empty range when x has no such term, or is nil.
func (x *Index) postingRange(t string) (start, end uint32) {
	if x == nil {
		return 0, 0
	}
	i, ok := slices.BinarySearch(x.Terms, t)
	if !ok {
		return 0, 0
	}
	if i > 0 {
		start = x.Ends[i-1]
	}
	return start, x.Ends[i]
}

// ParamsOf returns the parameters of a tool's JSON Schema: each property,
// with its description, and those of the properties of an object property
// or of the objects of an array property, a level down. A schema that is
// not a JSON object has none.
func ParamsOf(schema string) []Param {
	var s jsonSchema
	if json.Unmarshal([]byte(schema), &s) != nil {
		return nil
	}
	var out []Param
	s.params(&out, 2)
	return out
}

type jsonSchema struct {
	Description string                `json:"description"`
	Properties  map[string]jsonSchema `json:"properties"`
	Items       *jsonSchema           `json:"items"`
}

func (s *jsonSchema) params(out *[]Param, depth int) {
	if depth == 0 {
		return
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p := s.Properties[n]
		*out = append(*out, Param{Name: n, Description: p.Description})
		if p.Items != nil {
			p.Items.params(out, depth-1)
		}
		p.params(out, depth-1)
	}
}

// Searcher searches the documents of several indexes as one collection:
// the documents of the first, then those of the second, and so on, each
// with a key that orders equal scores. It is never changed once made and
// is safe for concurrent use.
type Searcher struct {
	segs []*Index
	// base[i] is the number of the first document of segs[i].
	base []int
	keys []string
	// impact holds, for each segment, BM25's term frequency part of
	// each of its postings, tf*(k1+1)/(tf+k1*(1-b+b*len/avglen)): a
	// query adds it up, times the term's idf.
	impact [][]float32
}

// NewSearcher returns a searcher of the documents of segs, in order, whose
// keys (the tools' names, say) are keys, one a document. A nil segment
// holds no document.
func NewSearcher(keys []string, segs ...*Index) (*Searcher, error) {
	s := &Searcher{keys: keys}
	var total float64
	n := 0
	for _, x := range segs {
		s.segs = append(s.segs, x)
		s.base = append(s.base, n)
		n += x.Len()
		if x != nil {
			for _, l := range x.Lens {
				total += float64(l)
			}
		}
	}
	if n != len(keys) {
		return nil, fmt.Errorf("toolsearch: %d documents and %d keys", n, len(keys))
	}
	avg := 1.0
	if n > 0 && total > 0 {
		avg = total / float64(n)
	}
	s.impact = make([][]float32, len(segs))
	for i, x := range segs {
		if x == nil {
			continue
		}
		imp := make([]float32, len(x.Postings))
		for j, p := range x.Postings {
			tf := float64(p&0xffff) / 2
			norm := k1 * (1 - b + b*float64(x.Lens[p>>16])/avg)
			imp[j] = float32(tf * (k1 + 1) / (tf + norm))
		}
		s.impact[i] = imp
	}
	return s, nil
}

// Len returns the number of documents.
func (s *Searcher) Len() int { return len(s.keys) }

// Hit is one document a search found.
type Hit struct {
	// Doc is the document's number; Key its key.
	Doc int
	Key string
	// Score is the document's BM25 score for the query; higher is
	// better, and it is always positive.
	Score float64
}

// Search returns the at most k documents that best match query, best
// first; equal scores are ordered by key. keep, when not nil, says which
// documents may be returned. A document that shares no term with the query
// is never returned.
func (s *Searcher) Search(query string, k int, keep func(doc int) bool) []Hit {
	if k <= 0 || len(s.keys) == 0 {
		return nil
	}
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil
	}
	scores := make([]float32, len(s.keys))
	n := float64(len(s.keys))
	// The postings' ranges of the term in each segment.
	starts, ends := make([]uint32, len(s.segs)), make([]uint32, len(s.segs))
	for _, qt := range terms {
		df := 0
		for si, x := range s.segs {
			starts[si], ends[si] = x.postingRange(qt.term)
			df += int(ends[si] - starts[si])
		}
		if df == 0 {
			continue
		}
		idf := float32(qt.weight * math.Log(1+(n-float64(df)+0.5)/(float64(df)+0.5)))
		for si, x := range s.segs {
			base, imp := s.base[si], s.impact[si]
			for j := starts[si]; j < ends[si]; j++ {
				scores[base+int(x.Postings[j]>>16)] += idf * imp[j]
			}
		}
	}
	var top []Hit
	for d, sc := range scores {
		if sc <= 0 || keep != nil && !keep(d) {
			continue
		}
		h := Hit{Doc: d, Key: s.keys[d], Score: float64(sc)}
		if len(top) == k && !better(h, top[k-1]) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return better(h, top[i]) })
		if len(top) < k {
			top = append(top, Hit{})
		}
		copy(top[i+1:], top[i:])
		top[i] = h
	}
	return top
}

// better reports whether a ranks before b: a higher score, or an equal
// one and a smaller key.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return cmp.Compare(a.Key, b.Key) < 0
}

// queryTerm is a term of a query and its weight: 1 for a word of the
// query, less for a related word.
type queryTerm struct {
	term   string
	weight float64
}

// relatedWeight is the weight of a word related to one of the query's.
const relatedWeight = 0.4

// queryTerms returns the distinct terms of a query, with the related
// words of each that the query does not hold itself.
func queryTerms(query string) []queryTerm {
	var out []queryTerm
	has := func(t string) int {
		return slices.IndexFunc(out, func(q queryTerm) bool { return q.term == t })
	}
	words := Tokens(query)
	for _, t := range words {
		if i := has(t); i >= 0 {
			out[i].weight = 1
			continue
		}
		out = append(out, queryTerm{t, 1})
	}
	for _, t := range words {
		for _, r := range related(t) {
			if has(r) < 0 {
				out = append(out, queryTerm{r, relatedWeight})
			}
		}
	}
	return out
}

// Related returns the words a query word also finds, at a lower weight,
// as terms (see Tokens); nil for most words.
func Related(word string) []string {
	return related(term(strings.ToLower(word)))
}
