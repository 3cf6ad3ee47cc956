package unexported

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Format is a tool.
type Format struct{}

// FormatArgs are its arguments.
type FormatArgs struct {
	// Style is unexported.
	Style style `json:"style"` // want `type style is unexported`
}

// Definition describes it.
func (Format) Definition() tool.Definition {
	return tool.Definition{ID: "format", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Format) Execute(ctx context.Context, args FormatArgs) (string, error) {
	var r string
	return r, nil
}

type style string
