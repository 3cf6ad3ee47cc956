package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Strs is a tool.
type Strs struct{}

// StrsArgs are its arguments.
type StrsArgs struct{}

// Definition describes it.
func (Strs) Definition() tool.Definition {
	return tool.Definition{ID: "strs", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Strs) Execute(ctx context.Context, args StrsArgs) ([]string, error) {
	var r []string
	return r, nil
}
