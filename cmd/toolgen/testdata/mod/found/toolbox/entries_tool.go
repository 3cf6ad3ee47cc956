package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Entries is a tool found by the invariant test.
type Entries struct{}

// EntriesArgs are its arguments.
type EntriesArgs struct{}

// Definition describes entries.
func (Entries) Definition() tool.Definition {
	return tool.Definition{ID: "entries", Description: "Case entries. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Entries) Execute(ctx context.Context, args EntriesArgs) (string, error) {
	var r string
	return r, nil
}
