package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Ints is a tool found by the invariant test.
type Ints struct{}

// IntsArgs are its arguments.
type IntsArgs struct{}

// Definition describes ints.
func (Ints) Definition() tool.Definition {
	return tool.Definition{ID: "ints", Description: "Case ints. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Ints) Execute(ctx context.Context, args IntsArgs) (int, error) {
	var r int
	return r, nil
}
