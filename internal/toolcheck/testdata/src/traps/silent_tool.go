package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Silent is a trap of issue 31.
type Silent struct{}

// SilentArgs are its arguments.
type SilentArgs struct {
}

// SilentOut has no exported field: encoding/json writes {}.
type SilentOut struct {
	count int
	names []string
}

var _ = SilentOut{count: 0, names: nil}

// Definition describes silent.
func (Silent) Definition() tool.Definition {
	return tool.Definition{ID: "silent", Description: "Case silent. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Silent) Execute(ctx context.Context, args SilentArgs) (SilentOut, error) { // want `fields of SilentOut are all unexported`
	var r SilentOut
	return r, nil
}
