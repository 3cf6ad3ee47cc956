package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Halfway is a tool whose argument type is right on Linux alone.
type Halfway struct{}

// HalfwayArgs take an option whose type the platform's helper file gives.
type HalfwayArgs struct {
	// The option, in a few words.
	Opt HalfwayOpt `json:"opt"`
}

// Definition describes halfway.
func (Halfway) Definition() tool.Definition {
	return tool.Definition{ID: "halfway", Description: "Take an option. Use it when a test needs a tool that passes the checks on some platforms only."}
}

// Execute does nothing.
func (Halfway) Execute(ctx context.Context, args HalfwayArgs) (string, error) {
	return "", nil
}
