package twotypes

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// One is a tool.
type One struct{}

// OneArgs are its arguments.
type OneArgs struct{}

// Definition describes it.
func (One) Definition() tool.Definition {
	return tool.Definition{ID: "two", Description: "Does a thing."}
}

// Execute runs it.
func (One) Execute(ctx context.Context, args OneArgs) (string, error) { var r string; return r, nil }

// Two is a second tool.
type Two struct{} // want `Two is a second tool type in two_tool.go \(the first is One\)`

// Definition describes it.
func (Two) Definition() tool.Definition { return tool.Definition{ID: "two", Description: "x"} }
