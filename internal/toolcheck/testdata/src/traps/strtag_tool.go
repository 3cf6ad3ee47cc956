package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// StrTag is a trap of issue 31.
type StrTag struct{}

// StrTagArgs are its arguments.
type StrTagArgs struct {
	// ID is an id, which encoding/json would read as a string inside a string.
	ID string `json:"id,string"` // want `the json tag option "string" is supported on a number or a boolean, not on strings`
}

// Definition describes strtag.
func (StrTag) Definition() tool.Definition {
	return tool.Definition{ID: "strtag", Description: "Case strtag. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (StrTag) Execute(ctx context.Context, args StrTagArgs) (string, error) {
	var r string
	return r, nil
}
