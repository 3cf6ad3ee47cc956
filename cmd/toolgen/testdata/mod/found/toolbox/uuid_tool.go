package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UUID is a tool found by the invariant test.
type UUID struct{}

// UUIDArgs are its arguments.
type UUIDArgs struct{}

// Definition describes uuid.
func (UUID) Definition() tool.Definition {
	return tool.Definition{ID: "uuid", Description: "Case uuid. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (UUID) Execute(ctx context.Context, args UUIDArgs) (string, error) {
	var r string
	return r, nil
}
