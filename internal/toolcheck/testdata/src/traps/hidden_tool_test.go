package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Hidden is a tool in a test file: never registered.
type Hidden struct{}

// HiddenArgs are empty.
type HiddenArgs struct{}

// Definition describes hidden.
func (Hidden) Definition() tool.Definition { // want `note: Hidden.Definition is in hidden_tool_test.go, a test file`
	return tool.Definition{ID: "hidden", Description: "Case hidden. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (Hidden) Execute(ctx context.Context, args HiddenArgs) (string, error) { return "", nil }
