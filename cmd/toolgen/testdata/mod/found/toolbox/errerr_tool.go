package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// ErrErr is a tool found by the invariant test.
type ErrErr struct{}

// ErrErrArgs are its arguments.
type ErrErrArgs struct{}

// Definition describes errerr.
func (ErrErr) Definition() tool.Definition {
	return tool.Definition{ID: "errerr", Description: "Case errerr. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (ErrErr) Execute(ctx context.Context, args ErrErrArgs) (error, error) {
	var r error
	return r, nil
}
