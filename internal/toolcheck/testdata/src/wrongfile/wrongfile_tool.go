package wrongfile

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// WrongFile is a tool.
type WrongFile struct{}

// WrongFileArgs are its arguments.
type WrongFileArgs struct{}

// Definition describes it.
func (WrongFile) Definition() tool.Definition { // want `file wrongfile_tool.go holds the tool with id "other": name the file other_tool.go`
	return tool.Definition{ID: "other", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (WrongFile) Execute(ctx context.Context, args WrongFileArgs) (string, error) {
	var r string
	return r, nil
}
