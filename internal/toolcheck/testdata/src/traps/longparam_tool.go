package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// LongParam is a trap of issue 31.
type LongParam struct{}

// LongParamArgs are its arguments.
type LongParamArgs struct {
	// Text is the text. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word. A word.
	Text string `json:"text"` // want `description has 577 characters, more than 512`
}

// Definition describes longparam.
func (LongParam) Definition() tool.Definition {
	return tool.Definition{ID: "longparam", Description: "Case longparam. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (LongParam) Execute(ctx context.Context, args LongParamArgs) (string, error) {
	var r string
	return r, nil
}
