package badtype

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadType is a tool.
type BadType struct{}

// BadTypeArgs are its arguments.
type BadTypeArgs struct {
	// C is a channel.
	C chan int `json:"c"` // want `type chan int cannot be expressed in JSON Schema`
	// M is a map of int keys, which JSON object keys cannot be.
	M map[int]string `json:"m"` // want `map key type int is not supported: JSON object keys are strings`
}

// Definition describes it.
func (BadType) Definition() tool.Definition {
	return tool.Definition{ID: "badtype", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (BadType) Execute(ctx context.Context, args BadTypeArgs) (string, error) {
	var r string
	return r, nil
}
