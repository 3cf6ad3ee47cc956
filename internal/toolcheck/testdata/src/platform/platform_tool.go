//go:build !(windows && arm64)

package platform // want `tool file excluded by build constraints on windows/arm64`

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Platform is a tool.
type Platform struct{}

// PlatformArgs are its arguments.
type PlatformArgs struct{}

// Definition describes it.
func (Platform) Definition() tool.Definition {
	return tool.Definition{ID: "platform", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Platform) Execute(ctx context.Context, args PlatformArgs) (string, error) {
	var r string
	return r, nil
}
