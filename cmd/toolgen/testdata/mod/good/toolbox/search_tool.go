package toolbox

import (
	"context"
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
}

// Range is a span of pages.
type Range struct {
	From uint `json:"from"` // First page, counted from 1.
	To   uint `json:"to"`   // Last page, inclusive.
}

// SearchResult is what search answers.
type SearchResult struct {
	Calls int    `json:"calls"`
	Query string `json:"query"`
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
	return SearchResult{Calls: s.calls, Query: args.Query}, nil
}
