package tools

import (
	"context"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Echo answers its text.
type Echo struct{}

// EchoArgs are the arguments of echo.
type EchoArgs struct {
	// The text to answer.
	Text string `json:"text" jsonschema:"minLength=1"`
}

// Definition describes echo.
func (Echo) Definition() tool.Definition {
	return tool.Definition{
		ID:          "echo",
		Description: "Answer the text, prefixed with \"echo: \". Use it when a test needs a tool that answers what it was sent.",
		Timeout:     5 * time.Second,
	}
}

// Execute answers "echo: " and the text.
func (Echo) Execute(ctx context.Context, args EchoArgs) (string, error) {
	return "echo: " + args.Text, nil
}
