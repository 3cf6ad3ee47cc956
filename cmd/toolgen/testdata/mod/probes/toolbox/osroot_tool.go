package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os"
)

// OSRoot is a probe.
type OSRoot struct{}

// OSRootArgs are its arguments.
type OSRootArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (OSRoot) Definition() tool.Definition {
	return tool.Definition{ID: "osroot", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (OSRoot) Execute(ctx context.Context, args OSRootArgs) (string, error) {
	r, err := os.OpenRoot(args.Q)
	if err != nil {
		return "", err
	}
	return "", r.Close()
}
