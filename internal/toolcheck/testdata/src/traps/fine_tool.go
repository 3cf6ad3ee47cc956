package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Fine is a trap of issue 31.
type Fine struct{}

// FineArgs are its arguments.
type FineArgs struct {
	// Word is any word at all.
	Word string `json:"word"`
}

// Definition describes fine.
func (Fine) Definition() tool.Definition {
	return tool.Definition{ID: "fine", Description: "Case fine. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Fine) Execute(ctx context.Context, args FineArgs) (string, error) {
	var r string
	return r, nil
}
