package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Beta clashes with the name of alpha.
type Beta struct{}

// BetaArgs are empty.
type BetaArgs struct{}

// Definition describes beta.
func (Beta) Definition() tool.Definition {
	return tool.Definition{ID: "beta", Description: "Second by file name. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (Beta) Execute(ctx context.Context, args BetaArgs) (string, error) { return "", nil }
