package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Inline is a trap of issue 31.
type Inline struct{}

// InlineArgs are its arguments.
type InlineArgs struct {
	// Page is the page to read, from 1.
	Page int `json:"page,inline"` // want `json tag option "inline" is not one encoding/json knows`
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
