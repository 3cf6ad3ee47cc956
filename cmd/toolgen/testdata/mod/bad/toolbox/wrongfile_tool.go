package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// WrongFile lives in a file named for another id.
type WrongFile struct{}

// WrongFileArgs are empty.
type WrongFileArgs struct{}

// Definition describes other.
func (WrongFile) Definition() tool.Definition {
	return tool.Definition{ID: "other", Description: "File and id disagree. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (WrongFile) Execute(ctx context.Context, args WrongFileArgs) (string, error) { return "", nil }
