package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UnexpArgs takes unexported args.
type UnexpArgs struct{}

type unexpArgs struct{}

// Definition describes unexpargs.
func (UnexpArgs) Definition() tool.Definition {
	return tool.Definition{ID: "unexpargs", Description: "Case unexpargs. Use it when a test needs this case of the checks."}
}

// Execute answers.
func (UnexpArgs) Execute(ctx context.Context, args unexpArgs) (string, error) { return "", nil }
