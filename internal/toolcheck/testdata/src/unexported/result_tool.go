package unexported

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Result is a tool.
type Result struct{}

// ResultArgs are its arguments.
type ResultArgs struct{}

// Definition describes it.
func (Result) Definition() tool.Definition {
	return tool.Definition{ID: "result", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Result) Execute(ctx context.Context, args ResultArgs) (answer, error) { // want `Result.Execute returns answer, and answer is unexported`
	var r answer
	return r, nil
}

type answer struct{ N int }
