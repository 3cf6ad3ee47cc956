package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UnexpRes is a tool found by the invariant test.
type UnexpRes struct{}

// UnexpResArgs are its arguments.
type UnexpResArgs struct{}

// Definition describes unexpres.
func (UnexpRes) Definition() tool.Definition {
	return tool.Definition{ID: "unexpres", Description: "Case unexpres. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (UnexpRes) Execute(ctx context.Context, args UnexpResArgs) ([]answer, error) {
	var r []answer
	return r, nil
}

type answer struct{ N int }
