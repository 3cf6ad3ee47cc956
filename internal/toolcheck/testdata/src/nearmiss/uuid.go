package nearmiss

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UUID is a tool.
type UUID struct{} // want `note: UUID looks like a tool, but uuid.go is a helper file: only \*_tool.go files are tools; to register it, rename the file uuid_tool.go`

// UUIDArgs are its arguments.
type UUIDArgs struct{}

// Definition describes it.
func (UUID) Definition() tool.Definition {
	return tool.Definition{ID: "uuid", Description: "Does a thing."}
}

// Execute runs it.
func (UUID) Execute(ctx context.Context, args UUIDArgs) (string, error) { var r string; return r, nil }
