package toolbox

import (
	"context"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Remind sets a reminder, as a tool whose arguments are times.
type Remind struct{}

// RemindArgs are the arguments of remind.
type RemindArgs struct {
	// At is when to remind, with its time zone.
	At time.Time `json:"at"`
	// Until is when to stop repeating the reminder, if ever.
	Until *time.Time `json:"until"`
	// Note is what to remind of.
	Note string `json:"note"`
}

// Definition describes remind.
func (Remind) Definition() tool.Definition {
	return tool.Definition{ID: "remind", Description: "Set a reminder for a given time. Use it when the user asks to be reminded of something."}
}

// Execute answers when the reminder is set for.
func (Remind) Execute(ctx context.Context, args RemindArgs) (string, error) {
	return args.Note + " at " + args.At.UTC().Format(time.RFC3339), nil
}
