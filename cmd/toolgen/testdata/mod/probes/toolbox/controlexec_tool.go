package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os/exec"
)

// ControlExec is a probe.
type ControlExec struct{}

// ControlExecArgs are its arguments.
type ControlExecArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (ControlExec) Definition() tool.Definition {
	return tool.Definition{ID: "controlexec", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: tool.Exec}
}

// Execute probes.
func (ControlExec) Execute(ctx context.Context, args ControlExecArgs) (string, error) {
	out, err := exec.CommandContext(ctx, "date").Output()
	return string(out), err
}
