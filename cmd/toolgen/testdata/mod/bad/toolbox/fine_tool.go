package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Fine follows the convention.
type Fine struct{}

// FineArgs are empty.
type FineArgs struct{}

// Definition describes fine.
func (Fine) Definition() tool.Definition {
	return tool.Definition{ID: "fine", Description: "Do nothing, well. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (Fine) Execute(ctx context.Context, args FineArgs) (string, error) { return "ok", nil }
