package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Caps is a tool found by the invariant test.
type Caps struct{}

// CapsArgs are its arguments.
type CapsArgs struct{}

// Definition describes caps.
func (Caps) Definition() tool.Definition {
	return tool.Definition{ID: "caps", Description: "Case caps.", Capabilities: 1 << 40}
}

// Execute answers with the zero value.
func (Caps) Execute(ctx context.Context, args CapsArgs) (string, error) {
	var r string
	return r, nil
}
