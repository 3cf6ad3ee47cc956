package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UUIDv7 is a tool found by the invariant test.
type UUIDv7 struct{}

// UUIDv7Args are its arguments.
type UUIDv7Args struct{}

// Definition describes uuidv7.
func (UUIDv7) Definition() tool.Definition {
	return tool.Definition{ID: "uuidv7", Description: "Case uuidv7."}
}

// Execute answers with the zero value.
func (UUIDv7) Execute(ctx context.Context, args UUIDv7Args) (string, error) {
	var r string
	return r, nil
}
