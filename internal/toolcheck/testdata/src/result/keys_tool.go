package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Keys is a tool.
type Keys struct{}

// KeysArgs are its arguments.
type KeysArgs struct{}

// Definition describes it.
func (Keys) Definition() tool.Definition {
	return tool.Definition{ID: "keys", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Keys) Execute(ctx context.Context, args KeysArgs) (map[int]bool, error) {
	var r map[int]bool
	return r, nil
}
