package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// ErrErr is a tool.
type ErrErr struct{}

// ErrErrArgs are its arguments.
type ErrErrArgs struct{}

// Definition describes it.
func (ErrErr) Definition() tool.Definition {
	return tool.Definition{ID: "errerr", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (ErrErr) Execute(ctx context.Context, args ErrErrArgs) (error, error) { // want `ErrErr.Execute returns error, which is not an answer`
	var r error
	return r, nil
}
