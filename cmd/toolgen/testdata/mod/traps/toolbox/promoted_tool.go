package toolbox

import (
	"context"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Promoted takes a struct that embeds time.Time, whose UnmarshalJSON
// encoding/json calls to read the whole struct.
type Promoted struct{}

// Meeting is when and what.
type Meeting struct {
	time.Time
	// Topic is what the meeting is about.
	Topic string `json:"topic"`
}

// PromotedArgs are its arguments.
type PromotedArgs struct {
	// Meeting to put in the calendar.
	Meeting Meeting `json:"meeting"`
}

// Definition describes promoted.
func (Promoted) Definition() tool.Definition {
	return tool.Definition{ID: "promoted", Description: "Case promoted. Use it when a test needs this case of the checks."}
}

// Execute answers nothing.
func (Promoted) Execute(ctx context.Context, args PromotedArgs) (string, error) { return "", nil }
