package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

var description = "Not a constant."

// DefVar's Definition reads a variable.
type DefVar struct{}

// DefVarArgs are empty.
type DefVarArgs struct{}

// Definition describes defvar.
func (DefVar) Definition() tool.Definition {
	return tool.Definition{ID: "defvar", Description: description}
}

// Execute does nothing.
func (DefVar) Execute(ctx context.Context, args DefVarArgs) (string, error) { return "", nil }
