package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Alpha is shown to the model as beta.
type Alpha struct{}

// AlphaArgs are empty.
type AlphaArgs struct{}

// Definition describes alpha.
func (Alpha) Definition() tool.Definition {
	return tool.Definition{ID: "alpha", Name: "beta", Description: "First by file name. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (Alpha) Execute(ctx context.Context, args AlphaArgs) (string, error) { return "", nil }
