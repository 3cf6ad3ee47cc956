package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"net/http"
)

// HTTPDir is a probe.
type HTTPDir struct{}

// HTTPDirArgs are its arguments.
type HTTPDirArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (HTTPDir) Definition() tool.Definition {
	return tool.Definition{ID: "httpdir", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (HTTPDir) Execute(ctx context.Context, args HTTPDirArgs) (string, error) {
	_, err := http.Dir(args.Q).Open("x")
	return "", err
}
