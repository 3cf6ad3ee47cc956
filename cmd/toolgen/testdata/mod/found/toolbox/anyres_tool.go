package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// AnyRes is a tool found by the invariant test.
type AnyRes struct{}

// AnyResArgs are its arguments.
type AnyResArgs struct{}

// Definition describes anyres.
func (AnyRes) Definition() tool.Definition {
	return tool.Definition{ID: "anyres", Description: "Case anyres. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (AnyRes) Execute(ctx context.Context, args AnyResArgs) (any, error) {
	var r any
	return r, nil
}
