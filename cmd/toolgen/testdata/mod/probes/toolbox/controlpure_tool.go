package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"strings"
)

// ControlPure is a probe.
type ControlPure struct{}

// ControlPureArgs are its arguments.
type ControlPureArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (ControlPure) Definition() tool.Definition {
	return tool.Definition{ID: "controlpure", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (ControlPure) Execute(ctx context.Context, args ControlPureArgs) (string, error) {
	return strings.ToUpper(args.Q), nil
}
