package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// NoDesc has no description.
type NoDesc struct{}

// NoDescArgs are empty.
type NoDescArgs struct{}

// Definition describes nodesc.
func (NoDesc) Definition() tool.Definition {
	return tool.Definition{ID: "nodesc", Description: "  "}
}

// Execute does nothing.
func (NoDesc) Execute(ctx context.Context, args NoDescArgs) (string, error) { return "", nil }
