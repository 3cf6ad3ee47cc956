package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// DefLogic's Definition computes.
type DefLogic struct{ verbose bool }

// DefLogicArgs are empty.
type DefLogicArgs struct{}

// Definition describes deflogic.
func (d DefLogic) Definition() tool.Definition {
	if d.verbose {
		return tool.Definition{ID: "deflogic", Description: "Long."}
	}
	return tool.Definition{ID: "deflogic", Description: "Short."}
}

// Execute does nothing.
func (DefLogic) Execute(ctx context.Context, args DefLogicArgs) (string, error) { return "", nil }
