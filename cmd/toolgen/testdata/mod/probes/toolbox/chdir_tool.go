package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os"
)

// Chdir is a probe.
type Chdir struct{}

// ChdirArgs are its arguments.
type ChdirArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Chdir) Definition() tool.Definition {
	return tool.Definition{ID: "chdir", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Chdir) Execute(ctx context.Context, args ChdirArgs) (string, error) {
	return "", os.Chdir(args.Q)
}
