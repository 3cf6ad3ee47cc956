package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadType has arguments JSON Schema cannot describe.
type BadType struct{}

// BadTypeArgs has a channel.
type BadTypeArgs struct {
	// A channel.
	Events chan int `json:"events"`
	// A complex number.
	Z complex128 `json:"z"`
}

// Definition describes badtype.
func (BadType) Definition() tool.Definition {
	return tool.Definition{ID: "badtype", Description: "Unusable argument types. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (BadType) Execute(ctx context.Context, args BadTypeArgs) (string, error) { return "", nil }
