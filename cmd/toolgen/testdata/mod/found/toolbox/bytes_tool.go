package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Bytes is a tool found by the invariant test.
type Bytes struct{}

// BytesArgs are its arguments.
type BytesArgs struct{}

// Definition describes bytes.
func (Bytes) Definition() tool.Definition {
	return tool.Definition{ID: "bytes", Description: "Case bytes. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Bytes) Execute(ctx context.Context, args BytesArgs) ([]byte, error) {
	var r []byte
	return r, nil
}
