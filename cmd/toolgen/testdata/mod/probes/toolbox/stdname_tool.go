package toolbox

import (
	"context"
	"crypto/stdname"
	"github.com/toolreg/toolreg/tool"
)

// Stdname is a probe.
type Stdname struct{}

// StdnameArgs are its arguments.
type StdnameArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Stdname) Definition() tool.Definition {
	return tool.Definition{ID: "stdname", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Stdname) Execute(ctx context.Context, args StdnameArgs) (string, error) {
	return "", stdname.Remove(args.Q)
}
