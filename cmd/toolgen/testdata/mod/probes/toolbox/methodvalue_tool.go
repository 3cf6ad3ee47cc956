package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os"
)

// MethodValue is a probe.
type MethodValue struct{}

// MethodValueArgs are its arguments.
type MethodValueArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (MethodValue) Definition() tool.Definition {
	return tool.Definition{ID: "methodvalue", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (MethodValue) Execute(ctx context.Context, args MethodValueArgs) (string, error) {
	f := os.Stdout.WriteString
	_, err := f(args.Q)
	return "", err
}
