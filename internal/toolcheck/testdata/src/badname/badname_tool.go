package badname

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadName is a tool.
type BadName struct{}

// BadNameArgs are its arguments.
type BadNameArgs struct{}

// Definition describes it.
func (BadName) Definition() tool.Definition {
	return tool.Definition{ID: "badname", Name: "bad name!", Description: "Does a thing. Use it when a test needs this case of the checks."} // want `BadName.Definition: Name "bad name!" does not match`
}

// Execute runs it.
func (BadName) Execute(ctx context.Context, args BadNameArgs) (string, error) {
	var r string
	return r, nil
}
