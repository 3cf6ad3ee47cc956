package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Bytes is a tool.
type Bytes struct{}

// BytesArgs are its arguments.
type BytesArgs struct{}

// Definition describes it.
func (Bytes) Definition() tool.Definition {
	return tool.Definition{ID: "bytes", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Bytes) Execute(ctx context.Context, args BytesArgs) ([]byte, error) {
	var r []byte
	return r, nil
}
