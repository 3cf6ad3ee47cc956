package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"syscall"
)

// RawSyscall is a probe.
type RawSyscall struct{}

// RawSyscallArgs are its arguments.
type RawSyscallArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (RawSyscall) Definition() tool.Definition {
	return tool.Definition{ID: "rawsyscall", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (RawSyscall) Execute(ctx context.Context, args RawSyscallArgs) (string, error) {
	n := uintptr(len(args.Q))
	_, _, e := syscall.Syscall(n, 0, 0, 0)
	return "", e
}
