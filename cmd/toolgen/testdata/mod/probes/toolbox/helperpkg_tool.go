package toolbox

import (
	"context"
	"example.com/tools/probes/helper"
	"github.com/toolreg/toolreg/tool"
)

// HelperPkg is a probe.
type HelperPkg struct{}

// HelperPkgArgs are its arguments.
type HelperPkgArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (HelperPkg) Definition() tool.Definition {
	return tool.Definition{ID: "helperpkg", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (HelperPkg) Execute(ctx context.Context, args HelperPkgArgs) (string, error) {
	return "", helper.Run(ctx, args.Q)
}
