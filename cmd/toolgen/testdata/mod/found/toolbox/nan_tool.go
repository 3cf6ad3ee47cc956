package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// NaN is a tool found by the invariant test.
type NaN struct{}

// NaNArgs are its arguments.
type NaNArgs struct {
	// X is bounded by NaN.
	X float64 `json:"x" jsonschema:"maximum=NaN"`
}

// Definition describes nan.
func (NaN) Definition() tool.Definition {
	return tool.Definition{ID: "nan", Description: "Case nan. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (NaN) Execute(ctx context.Context, args NaNArgs) (string, error) {
	var r string
	return r, nil
}
