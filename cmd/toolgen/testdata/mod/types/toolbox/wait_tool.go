package toolbox

import (
	"context"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Wait waits, as a tool whose arguments are durations.
type Wait struct{}

// WaitArgs are the arguments of wait.
type WaitArgs struct {
	// For is how long to wait.
	For time.Duration `json:"for" jsonschema:"minimum=1s,maximum=2h"`
	// Poll is how often to look while waiting.
	Poll time.Duration `json:"poll,omitempty" jsonschema:"minimum=10ms,default=1m"`
	// Grace is an extra wait at the end, if any.
	Grace *time.Duration `json:"grace"`
	// Steps are the waits of each stage, in order.
	Steps []time.Duration `json:"steps,omitempty" jsonschema:"maxItems=3"`
}

// Definition describes wait.
func (Wait) Definition() tool.Definition {
	return tool.Definition{ID: "wait", Description: "Wait for a while before going on. Use it when the user asks to wait or to try again later."}
}

// Execute answers the total wait, without waiting.
func (Wait) Execute(ctx context.Context, args WaitArgs) (string, error) {
	total := args.For
	if args.Grace != nil {
		total += *args.Grace
	}
	for _, s := range args.Steps {
		total += s
	}
	return total.String() + " every " + args.Poll.String(), nil
}
