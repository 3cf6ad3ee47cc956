package good

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Shout is a tool.
type Shout struct{}

// ShoutArgs are its arguments.
type ShoutArgs struct {
	// Text to shout.
	Text string `json:"text" jsonschema:"minLength=1"`
}

// Definition describes it.
func (Shout) Definition() tool.Definition {
	return tool.Definition{ID: "shout", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Shout) Execute(ctx context.Context, args ShoutArgs) (string, error) {
	var r string
	return r, nil
}
