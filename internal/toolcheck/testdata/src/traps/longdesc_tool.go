package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// LongDesc is a trap of issue 31: a description of more than 1,024
// characters, sent with every request.
type LongDesc struct{}

// LongDescArgs are empty.
type LongDescArgs struct{}

// Definition describes longdesc.
func (LongDesc) Definition() tool.Definition {
	return tool.Definition{ID: "longdesc", Description: "Case longdesc. Use it when a test needs this case of the checks. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. Padding that goes on. "} // want `Description has 1164 characters, more than 1024`
}

// Execute answers with the zero value.
func (LongDesc) Execute(ctx context.Context, args LongDescArgs) (string, error) {
	return "", nil
}
