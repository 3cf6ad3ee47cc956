package toolbox

import (
	"context"
	"strconv"

	"github.com/toolreg/toolreg/tool"
)

// PID answers with the process id, through cgo.
type PID struct{}

// PIDArgs are empty.
type PIDArgs struct{}

// Definition describes pid.
func (PID) Definition() tool.Definition {
	return tool.Definition{ID: "pid", Description: "The process id of the agent. Use it when a test needs this case of the checks.", Capabilities: tool.Unsafe}
}

// Execute answers.
func (PID) Execute(ctx context.Context, args PIDArgs) (string, error) {
	return strconv.Itoa(pid()), nil
}
