package result

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Chan is a tool.
type Chan struct{}

// ChanArgs are its arguments.
type ChanArgs struct{}

// Definition describes it.
func (Chan) Definition() tool.Definition {
	return tool.Definition{ID: "chan", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Chan) Execute(ctx context.Context, args ChanArgs) (chan int, error) { // want `Chan.Execute returns chan int, which cannot be encoded as JSON`
	var r chan int
	return r, nil
}
