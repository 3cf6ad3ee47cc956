package defvar

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

var description = "changes"

// DefVar reads a variable.
type DefVar struct{}

// DefVarArgs are empty.
type DefVarArgs struct{}

// Definition describes it.
func (DefVar) Definition() tool.Definition {
	return tool.Definition{ID: "defvar", Description: description} // want `DefVar.Definition: Description must be a constant`
}

// Execute runs it.
func (DefVar) Execute(ctx context.Context, args DefVarArgs) (string, error) { return "", nil }
