package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Obj is a tool found by the invariant test.
type Obj struct{}

// ObjArgs are its arguments.
type ObjArgs struct{}

// Definition describes obj.
func (Obj) Definition() tool.Definition {
	return tool.Definition{ID: "obj", Description: "Case obj. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Obj) Execute(ctx context.Context, args ObjArgs) (map[string]any, error) {
	var r map[string]any
	return r, nil
}
