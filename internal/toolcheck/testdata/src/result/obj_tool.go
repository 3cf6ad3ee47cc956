package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Obj is a tool.
type Obj struct{}

// ObjArgs are its arguments.
type ObjArgs struct{}

// Definition describes it.
func (Obj) Definition() tool.Definition {
	return tool.Definition{ID: "obj", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Obj) Execute(ctx context.Context, args ObjArgs) (map[string]any, error) {
	var r map[string]any
	return r, nil
}
