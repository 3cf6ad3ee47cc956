package toolbox

import (
	"context"
	"strconv"

	"github.com/toolreg/toolreg/tool"
)

// Undeclared calls C without declaring it.
type Undeclared struct{}

// UndeclaredArgs are empty.
type UndeclaredArgs struct{}

// Definition describes undeclared.
func (Undeclared) Definition() tool.Definition {
	return tool.Definition{ID: "undeclared", Description: "The process id, undeclared. Use it when a test needs this case of the checks."}
}

// Execute answers.
func (Undeclared) Execute(ctx context.Context, args UndeclaredArgs) (string, error) {
	return strconv.Itoa(pid()), nil
}
