package tools

import (
	"context"
	"strings"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Shout answers in capitals.
type Shout struct{}

// ShoutArgs are the arguments the model sends.
type ShoutArgs struct {
	// Text to shout.
	Text string `json:"text" jsonschema:"minLength=1"`
	// How many exclamation marks; 1 when left out.
	Marks int `json:"marks,omitempty" jsonschema:"minimum=1,maximum=5,default=1"`
}

// Definition describes the tool to the registry and the model.
func (Shout) Definition() tool.Definition {
	return tool.Definition{
		ID:          "shout",
		Description: "Repeat a text in capitals. Use it when the user asks to shout.",
		Timeout:     2 * time.Second,
	}
}

// Execute shouts.
func (Shout) Execute(ctx context.Context, args ShoutArgs) (string, error) {
	return strings.ToUpper(args.Text) + strings.Repeat("!", args.Marks), nil
}
