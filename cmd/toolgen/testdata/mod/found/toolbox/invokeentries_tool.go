package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// InvokeEntries is a tool found by the invariant test.
type InvokeEntries struct{}

// InvokeEntriesArgs are its arguments.
type InvokeEntriesArgs struct{}

// Definition describes invokeentries.
func (InvokeEntries) Definition() tool.Definition {
	return tool.Definition{ID: "invokeentries", Description: "Case invokeentries. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (InvokeEntries) Execute(ctx context.Context, args InvokeEntriesArgs) (string, error) {
	var r string
	return r, nil
}
