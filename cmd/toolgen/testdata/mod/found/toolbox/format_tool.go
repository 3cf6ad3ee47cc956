package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Format is a tool found by the invariant test.
type Format struct{}

// FormatArgs are its arguments.
type FormatArgs struct {
	// Style is of an unexported type.
	Style style `json:"style"`
}

// Definition describes format.
func (Format) Definition() tool.Definition {
	return tool.Definition{ID: "format", Description: "Case format. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (Format) Execute(ctx context.Context, args FormatArgs) (string, error) {
	var r string
	return r, nil
}

type style string
