package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Inline is a trap of issue 31.
type Inline struct{}

// InlineArgs are its arguments.
type InlineArgs struct {
	// Page is the page to read, from 1.
	Page int `json:"page,inline"`
}

// Definition describes inline.
func (Inline) Definition() tool.Definition {
	return tool.Definition{ID: "inline", Description: "Case inline. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Inline) Execute(ctx context.Context, args InlineArgs) (string, error) {
	var r string
	return r, nil
}
