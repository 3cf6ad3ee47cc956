package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Any is a tool.
type Any struct{}

// AnyArgs are its arguments.
type AnyArgs struct{}

// Definition describes it.
func (Any) Definition() tool.Definition {
	return tool.Definition{ID: "any", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Any) Execute(ctx context.Context, args AnyArgs) (any, error) { var r any; return r, nil }
