//go:build windows

package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Platform is a complete tool that only Windows compiles.
type Platform struct{}

// PlatformArgs are empty.
type PlatformArgs struct{}

// Definition describes platform.
func (Platform) Definition() tool.Definition {
	return tool.Definition{ID: "platform", Description: "Only on Windows. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (Platform) Execute(ctx context.Context, args PlatformArgs) (string, error) { return "", nil }
