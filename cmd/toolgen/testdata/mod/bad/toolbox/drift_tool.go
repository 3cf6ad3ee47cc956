package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Drift is a tool whose description the platform's helper file gives.
type Drift struct{}

// DriftArgs are empty.
type DriftArgs struct{}

// Definition describes drift.
func (Drift) Definition() tool.Definition {
	return tool.Definition{ID: "drift", Description: driftDescription}
}

// Execute does nothing.
func (Drift) Execute(ctx context.Context, args DriftArgs) (string, error) {
	return "", nil
}
