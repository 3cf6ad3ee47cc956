package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Arr is a tool.
type Arr struct{}

// ArrArgs are its arguments.
type ArrArgs struct{}

// Definition describes it.
func (Arr) Definition() tool.Definition {
	return tool.Definition{ID: "arr", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Arr) Execute(ctx context.Context, args ArrArgs) ([2]*float64, error) {
	var r [2]*float64
	return r, nil
}
