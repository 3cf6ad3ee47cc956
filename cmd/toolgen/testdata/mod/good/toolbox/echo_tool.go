package toolbox

import (
	"context"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Echo repeats a text.
type Echo struct{}

// EchoArgs are the arguments of echo.
type EchoArgs struct {
	// The text to repeat.
	Text string `json:"text"`
	// How many times; once when left out.
	Times int `json:"times,omitempty" jsonschema:"minimum=1,maximum=5,default=1"`
	// Letter case of the answer: upper or lower.
	Case Case `json:"case,omitempty" jsonschema:"enum=upper,enum=lower"`
}

// Case is a letter case.
type Case string

// Definition describes echo.
func (Echo) Definition() tool.Definition {
	return tool.Definition{
		ID:          "echo",
		Description: "Repeat a text. Use it when a test needs this case of the checks.",
	}
}

// Execute repeats the text.
func (Echo) Execute(ctx context.Context, args EchoArgs) (string, error) {
	s := strings.Repeat(args.Text, args.Times)
	switch args.Case {
	case "upper":
		s = strings.ToUpper(s)
	case "lower":
		s = strings.ToLower(s)
	}
	return s, nil
}
