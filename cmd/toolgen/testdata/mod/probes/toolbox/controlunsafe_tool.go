package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"syscall"
)

// ControlUnsafe is a probe.
type ControlUnsafe struct{}

// ControlUnsafeArgs are its arguments.
type ControlUnsafeArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (ControlUnsafe) Definition() tool.Definition {
	return tool.Definition{ID: "controlunsafe", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: tool.Unsafe}
}

// Execute probes.
func (ControlUnsafe) Execute(ctx context.Context, args ControlUnsafeArgs) (string, error) {
	_, _, e := syscall.Syscall(uintptr(len(args.Q)), 0, 0, 0)
	return "", e
}
