package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Int is a tool.
type Int struct{}

// IntArgs are its arguments.
type IntArgs struct{}

// Definition describes it.
func (Int) Definition() tool.Definition {
	return tool.Definition{ID: "int", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Int) Execute(ctx context.Context, args IntArgs) (int, error) { var r int; return r, nil }
