package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Unicode is a trap of issue 31.
type Unicode struct{}

// UnicodeArgs are its arguments.
type UnicodeArgs struct {
	// Length is the length of a foot, in cm.
	Length int `json:"fußlänge"` // want `a parameter name is made of ASCII letters`
}

// Definition describes unicode.
func (Unicode) Definition() tool.Definition {
	return tool.Definition{ID: "unicode", Description: "Case unicode. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Unicode) Execute(ctx context.Context, args UnicodeArgs) (string, error) {
	var r string
	return r, nil
}
