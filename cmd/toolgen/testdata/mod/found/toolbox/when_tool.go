package toolbox

import (
	"context"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// When is a tool found by the invariant test.
type When struct{}

// WhenArgs are its arguments.
type WhenArgs struct {
	// At is a time.
	At time.Time `json:"at"`
}

// Definition describes when.
func (When) Definition() tool.Definition {
	return tool.Definition{ID: "when", Description: "Case when. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (When) Execute(ctx context.Context, args WhenArgs) (string, error) {
	var r string
	return r, nil
}
