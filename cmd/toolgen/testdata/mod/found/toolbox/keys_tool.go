package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Keys is a tool found by the invariant test.
type Keys struct{}

// KeysArgs are its arguments.
type KeysArgs struct{}

// Definition describes keys.
func (Keys) Definition() tool.Definition {
	return tool.Definition{ID: "keys", Description: "Case keys. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Keys) Execute(ctx context.Context, args KeysArgs) (map[int][2]*float64, error) {
	var r map[int][2]*float64
	return r, nil
}
