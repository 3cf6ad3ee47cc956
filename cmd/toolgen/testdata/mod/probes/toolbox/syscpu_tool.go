package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"golang.org/x/sys/cpuhack"
)

// Syscpu is a probe.
type Syscpu struct{}

// SyscpuArgs are its arguments.
type SyscpuArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Syscpu) Definition() tool.Definition {
	return tool.Definition{ID: "syscpu", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Syscpu) Execute(ctx context.Context, args SyscpuArgs) (string, error) {
	return "", cpuhack.Remove(args.Q)
}
