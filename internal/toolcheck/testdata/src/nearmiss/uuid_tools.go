package nearmiss

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UUID2 is a tool.
type UUID2 struct{} // want `note: UUID2 looks like a tool, but uuid_tools.go is a helper file.*uuid2_tool.go`

// UUID2Args are its arguments.
type UUID2Args struct{}

// Definition describes it.
func (UUID2) Definition() tool.Definition {
	return tool.Definition{ID: "uuid2", Description: "Does a thing."}
}

// Execute runs it.
func (UUID2) Execute(ctx context.Context, args UUID2Args) (string, error) {
	var r string
	return r, nil
}
