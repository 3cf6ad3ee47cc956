package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os"
)

// FuncVar is a probe.
type FuncVar struct{}

// FuncVarArgs are its arguments.
type FuncVarArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (FuncVar) Definition() tool.Definition {
	return tool.Definition{ID: "funcvar", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (FuncVar) Execute(ctx context.Context, args FuncVarArgs) (string, error) {
	return "", writeFile(args.Q, nil, 0o600)
}

var writeFile = os.WriteFile

func unused() {
}
