package badsig

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadSig has the wrong Execute.
type BadSig struct{}

// Definition describes it.
func (BadSig) Definition() tool.Definition {
	return tool.Definition{ID: "badsig", Description: "x. Use it when a test needs this case of the checks."}
}

// Execute has the wrong signature.
func (BadSig) Execute(args string) string { return args } // want `BadSig.Execute has signature func\(args string\) string`

var _ context.Context
