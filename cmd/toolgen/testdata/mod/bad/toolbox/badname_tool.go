package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadName has a name models reject.
type BadName struct{}

// BadNameArgs are empty.
type BadNameArgs struct{}

// Definition describes badname.
func (BadName) Definition() tool.Definition {
	return tool.Definition{ID: "badname", Name: "bad name!", Description: "Spaces in the name. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (BadName) Execute(ctx context.Context, args BadNameArgs) (string, error) { return "", nil }
