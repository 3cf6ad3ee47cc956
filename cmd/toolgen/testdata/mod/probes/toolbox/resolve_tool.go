package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"net"
)

// Resolve is a probe.
type Resolve struct{}

// ResolveArgs are its arguments.
type ResolveArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Resolve) Definition() tool.Definition {
	return tool.Definition{ID: "resolve", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Resolve) Execute(ctx context.Context, args ResolveArgs) (string, error) {
	_, err := net.DefaultResolver.LookupHost(ctx, args.Q)
	return "", err
}
