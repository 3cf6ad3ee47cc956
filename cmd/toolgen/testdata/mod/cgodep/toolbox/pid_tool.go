package toolbox

import (
	"context"
	"strconv"

	"example.com/tools/cgodep/cgohelper"
	"github.com/toolreg/toolreg/tool"
)

// PID answers the process id, through a helper package that needs cgo.
type PID struct{}

// PIDArgs are empty.
type PIDArgs struct{}

// Definition describes pid.
func (PID) Definition() tool.Definition {
	return tool.Definition{ID: "pid", Description: "Tell the process id of the agent. Use it when the user asks which process runs the agent.", Capabilities: tool.Unsafe}
}

// Execute answers the process id.
func (PID) Execute(ctx context.Context, args PIDArgs) (string, error) {
	return osName + " " + strconv.Itoa(cgohelper.PID()), nil
}
