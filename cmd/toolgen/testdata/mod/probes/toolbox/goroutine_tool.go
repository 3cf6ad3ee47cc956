package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os/exec"
)

// Goroutine is a probe.
type Goroutine struct{}

// GoroutineArgs are its arguments.
type GoroutineArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Goroutine) Definition() tool.Definition {
	return tool.Definition{ID: "goroutine", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Goroutine) Execute(ctx context.Context, args GoroutineArgs) (string, error) {
	go exec.Command(args.Q).Run()
	return "", nil
}
