package toolbox

import (
	"context"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Took answers with types that encoding/json writes otherwise than their
// Go type suggests: its output schema must say what is written.
type Took struct{}

// TookArgs are its arguments.
type TookArgs struct{}

// TookResult is its answer: encoding/json writes Took as its nanoseconds,
// 1000000000, not "1s".
type TookResult struct {
	// Took is how long the work took.
	Took time.Duration `json:"took"`
	// Steps are the durations of the steps, as Took.
	Steps []time.Duration `json:"steps"`
}

// Definition describes took.
func (Took) Definition() tool.Definition {
	return tool.Definition{ID: "took", Description: "Case took. Use it when a test needs this case of the checks."}
}

// Execute answers with a second.
func (Took) Execute(ctx context.Context, args TookArgs) (TookResult, error) {
	return TookResult{Took: time.Second, Steps: []time.Duration{time.Millisecond}}, nil
}
