package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"io"
	"os"
)

// InterfaceField is a probe.
type InterfaceField struct{}

// InterfaceFieldArgs are its arguments.
type InterfaceFieldArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (InterfaceField) Definition() tool.Definition {
	return tool.Definition{ID: "interfacefield", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (InterfaceField) Execute(ctx context.Context, args InterfaceFieldArgs) (string, error) {
	var c io.Closer = os.Stdin
	return "", c.Close()
}
