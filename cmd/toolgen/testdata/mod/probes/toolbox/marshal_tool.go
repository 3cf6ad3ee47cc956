package toolbox

import (
	"context"
	"os/exec"

	"github.com/toolreg/toolreg/tool"
)

// Marshal is a probe whose result runs a program when encoded.
type Marshal struct{}

// MarshalArgs are its arguments.
type MarshalArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// MarshalResult runs a program when the registry encodes it.
type MarshalResult struct {
	// Inner is encoded too.
	Inner inner `json:"inner"`
}

type inner struct{}

// MarshalJSON runs a program.
func (inner) MarshalJSON() ([]byte, error) { return exec.Command("date").Output() }

// Definition describes the probe.
func (Marshal) Definition() tool.Definition {
	return tool.Definition{ID: "marshal", Description: "A probe. Use it when a test needs this case of the checks."}
}

// Execute probes.
func (Marshal) Execute(ctx context.Context, args MarshalArgs) (MarshalResult, error) {
	return MarshalResult{}, nil
}
