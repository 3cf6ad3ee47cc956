package nearmiss

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// OK is a tool.
type OK struct{}

// OKArgs are its arguments.
type OKArgs struct{}

// Definition describes it.
func (OK) Definition() tool.Definition {
	return tool.Definition{ID: "ok", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (OK) Execute(ctx context.Context, args OKArgs) (string, error) { var r string; return r, nil }
