package toolbox

import (
	"context"
	"dotless"
	"github.com/toolreg/toolreg/tool"
)

// Dotless is a probe.
type Dotless struct{}

// DotlessArgs are its arguments.
type DotlessArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Dotless) Definition() tool.Definition {
	return tool.Definition{ID: "dotless", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Dotless) Execute(ctx context.Context, args DotlessArgs) (string, error) {
	return "", dotless.Run(args.Q)
}
