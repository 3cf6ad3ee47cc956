package nodoc

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// NoDoc is a tool.
type NoDoc struct{}

// NoDocArgs are its arguments.
type NoDocArgs struct {
	Path /* want `parameter "path" has no description` */ string `json:"path"`
}

// Definition describes it.
func (NoDoc) Definition() tool.Definition {
	return tool.Definition{ID: "nodoc", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (NoDoc) Execute(ctx context.Context, args NoDocArgs) (string, error) {
	var r string
	return r, nil
}
