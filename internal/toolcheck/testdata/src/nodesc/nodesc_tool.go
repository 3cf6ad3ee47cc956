package nodesc

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// NoDesc is a tool.
type NoDesc struct{}

// NoDescArgs are its arguments.
type NoDescArgs struct{}

// Definition describes it.
func (NoDesc) Definition() tool.Definition {
	return tool.Definition{ID: "nodesc", Description: ""} // want `NoDesc.Definition: Description is empty`
}

// Execute runs it.
func (NoDesc) Execute(ctx context.Context, args NoDescArgs) (string, error) {
	var r string
	return r, nil
}
