package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os"
)

// HomeDir is a probe.
type HomeDir struct{}

// HomeDirArgs are its arguments.
type HomeDirArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (HomeDir) Definition() tool.Definition {
	return tool.Definition{ID: "homedir", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (HomeDir) Execute(ctx context.Context, args HomeDirArgs) (string, error) {
	return os.UserHomeDir()
}
