package badsig

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadSig has the wrong Execute.
type BadSig struct{}

// Definition describes it.
func (BadSig) Definition() tool.Definition {
	return tool.Definition{ID: "badsig", Description: "x"}
}

// Execute has the wrong signature.
func (BadSig) Execute(args string) string { return args } // want `BadSig.Execute has signature func\(args string\) string`

var _ context.Context
