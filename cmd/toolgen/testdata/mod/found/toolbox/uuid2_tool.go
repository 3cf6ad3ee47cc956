package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UUID2 is a tool found by the invariant test.
type UUID2 struct{}

// UUID2Args are its arguments.
type UUID2Args struct{}

// Definition describes uuid2.
func (UUID2) Definition() tool.Definition {
	return tool.Definition{ID: "uuid2", Name: "uuid", Description: "Case uuid2. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (UUID2) Execute(ctx context.Context, args UUID2Args) (string, error) {
	var r string
	return r, nil
}
