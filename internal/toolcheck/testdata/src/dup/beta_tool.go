package dup

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Beta is a tool.
type Beta struct{}

// BetaArgs are its arguments.
type BetaArgs struct{}

// Definition describes it.
func (Beta) Definition() tool.Definition {
	return tool.Definition{ID: "beta", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Beta) Execute(ctx context.Context, args BetaArgs) (string, error) { var r string; return r, nil }
