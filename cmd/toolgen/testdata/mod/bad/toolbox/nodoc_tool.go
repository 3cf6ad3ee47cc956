package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// NoDoc has a parameter without a description.
type NoDoc struct{}

// NoDocArgs has an undocumented field.
type NoDocArgs struct {
	Path string `json:"path"`
}

// Definition describes nodoc.
func (NoDoc) Definition() tool.Definition {
	return tool.Definition{ID: "nodoc", Description: "Undocumented parameter. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (NoDoc) Execute(ctx context.Context, args NoDocArgs) (string, error) { return "", nil }
