package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
)

// PlatformSplit is a probe: its helper is one file per platform.
type PlatformSplit struct{}

// PlatformSplitArgs are its arguments.
type PlatformSplitArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (PlatformSplit) Definition() tool.Definition {
	return tool.Definition{ID: "platformsplit", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (PlatformSplit) Execute(ctx context.Context, args PlatformSplitArgs) (string, error) {
	return splitHelper(args.Q), nil
}
