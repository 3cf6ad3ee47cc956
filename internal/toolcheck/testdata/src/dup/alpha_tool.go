package dup

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Alpha is a tool.
type Alpha struct{} // want `tool Alpha in alpha_tool.go uses the name "beta" of tool Beta in beta_tool.go, which is its id and file name`

// AlphaArgs are its arguments.
type AlphaArgs struct{}

// Definition describes it.
func (Alpha) Definition() tool.Definition {
	return tool.Definition{ID: "alpha", Name: "beta", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Alpha) Execute(ctx context.Context, args AlphaArgs) (string, error) {
	var r string
	return r, nil
}
