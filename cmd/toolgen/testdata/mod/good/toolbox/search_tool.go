package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Search looks things up in an index it keeps across calls.
type Search struct {
	calls int
}

// SearchArgs exercise nested structs, slices, pointers and every kind of
// number.
type SearchArgs struct {
	// Words to look for.
	Query string `json:"query" jsonschema:"minLength=1,maxLength=100,pattern=^[a-z ]+$"`
	// Tags that results must carry.
	Tags []string `json:"tags,omitempty" jsonschema:"maxItems=3"`
	// Filter narrows the results.
	Filter *Filter `json:"filter,omitempty"`
	// Pages to skip.
	Skip uint8 `json:"skip,omitempty"`
	// Weights of the ranking signals.
	Weights []float32 `json:"weights,omitempty" jsonschema:"minItems=1"`
	// Whether to include drafts.
	Drafts bool `json:"drafts,omitempty" jsonschema:"default=true"`
	// Not part of the arguments.
	Internal string `json:"-"`
	hidden   int
}

// Filter narrows a search.
type Filter struct {
	// Earliest year, inclusive.
	Year int16 `json:"year" jsonschema:"minimum=1900"`
	// Lowest score a result may have, from 0 to 1.
	MinScore float64 `json:"min_score,omitempty" jsonschema:"minimum=0,maximum=1"`
	// Ranges of pages.
	Pages []Range `json:"pages,omitempty"`
	// Priority, a small integer: 1 (high), 2 (normal) or 3 (low).
	Priority *int `json:"priority" jsonschema:"enum=1,enum=2,enum=3"`
	// Depth of the search, from 1 to 3.
	Depth Depth `json:"depth,omitempty" jsonschema:"minimum=1,maximum=3"`
	// Step between pages, at most 10.
	Step Step `json:"step,omitempty" jsonschema:"maximum=10"`
	// Boost of recent results, from 0.5.
	Boost Boost `json:"boost,omitempty" jsonschema:"minimum=0.5"`
	// Whether words must match exactly.
	Exact Flag `json:"exact,omitempty"`
	// Letter cases to try.
	Cases []Case `json:"cases,omitempty" jsonschema:"maxItems=2"`
}

// Depth, Step, Boost and Flag are named types over numbers and booleans,
// read through pointers of their underlying types.
type (
	Depth int8
	Step  uint32
	Boost float32
	Flag  bool
)

// Range is a span of pages.
type Range struct {
	From uint `json:"from"` // First page, counted from 1.
	To   uint `json:"to"`   // Last page, inclusive.
}

// SearchResult is what search answers.
type SearchResult struct {
	Calls int    `json:"calls"`
	Query string `json:"query"`
	// Score is a json.Number, which encoding/json writes as a number.
	Score json.Number `json:"score"`
}

// Definition describes search.
func (*Search) Definition() tool.Definition {
	return tool.Definition{
		ID:           "search",
		Name:         "find",
		Description:  "Find . Use it when a test needs this case of the checks." + "documents.",
		Timeout:      1500 * time.Millisecond,
		Capabilities: tool.Env | tool.ReadFiles,
	}
}

// Execute counts the call and echoes the query.
func (s *Search) Execute(ctx context.Context, args SearchArgs) (SearchResult, error) {
	s.calls++
	if _, ok := os.LookupEnv("SEARCH_OFFLINE"); ok || args.Query == "fail" {
		return SearchResult{}, fmt.Errorf("index unavailable")
	}
	return SearchResult{Calls: s.calls, Query: args.Query, Score: "0.5"}, nil
}
