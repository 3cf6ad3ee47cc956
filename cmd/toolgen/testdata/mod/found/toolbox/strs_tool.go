package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Strs is a tool found by the invariant test.
type Strs struct{}

// StrsArgs are its arguments.
type StrsArgs struct{}

// Definition describes strs.
func (Strs) Definition() tool.Definition {
	return tool.Definition{ID: "strs", Description: "Case strs. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Strs) Execute(ctx context.Context, args StrsArgs) ([]string, error) {
	var r []string
	return r, nil
}
