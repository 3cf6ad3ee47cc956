package toolbox

import (
	"context"
	"example.com/tools/probes/helper"
	"github.com/toolreg/toolreg/tool"
	"os"
)

// Generic is a probe.
type Generic struct{}

// GenericArgs are its arguments.
type GenericArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Generic) Definition() tool.Definition {
	return tool.Definition{ID: "generic", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Generic) Execute(ctx context.Context, args GenericArgs) (string, error) {
	return helper.Do(func() string { return os.Getenv(args.Q) }), nil
}
