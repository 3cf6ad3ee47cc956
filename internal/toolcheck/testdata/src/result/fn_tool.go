package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Fn is a tool.
type Fn struct{}

// FnArgs are its arguments.
type FnArgs struct{}

// Definition describes it.
func (Fn) Definition() tool.Definition {
	return tool.Definition{ID: "fn", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Fn) Execute(ctx context.Context, args FnArgs) (Out, error) { var r Out; return r, nil } // want `Fn.Execute returns Out, which cannot be encoded as JSON \(field F: func\(\) has no JSON form\)`

// Out holds a function.
type Out struct{ F func() }
