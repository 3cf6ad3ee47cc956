package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Hits answers with nil slices, maps and pointers, which encoding/json
// writes as null: its output schema must allow null there, or an MCP
// client that validates structuredContent refuses the answer.
type Hits struct{}

// Hit is one hit.
type Hit struct {
	// Title is the hit's title.
	Title string `json:"title"`
	// Tags are the hit's tags, nil when it has none.
	Tags []string `json:"tags"`
}

// HitsResult is what hits answers.
type HitsResult struct {
	// Hits are the hits, nil when there are none.
	Hits []Hit `json:"hits"`
	// Best is the best hit, nil when there are none.
	Best *Hit `json:"best"`
	// Scores are the scores by title, nil when there are none.
	Scores map[string]float64 `json:"scores"`
	// Ranks are the ranks of the hits, some unknown.
	Ranks []*int `json:"ranks"`
	// Next is where to go on, nil at the end.
	Next *string `json:"next" jsonschema:"enum=more"`
	// Groups are the hits by group.
	Groups map[string][]Hit `json:"groups"`
}

// Definition describes hits.
func (Hits) Definition() tool.Definition {
	return tool.Definition{ID: "hits", Description: "Case hits. Use it when a test needs this case of the checks."}
}

// Execute answers with nothing found.
func (Hits) Execute(ctx context.Context, args TookArgs) (HitsResult, error) {
	return HitsResult{Hits: []Hit{{Title: "t"}}, Ranks: []*int{nil}, Groups: map[string][]Hit{"g": nil}}, nil
}
