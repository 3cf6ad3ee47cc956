package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// ChanRes is a tool found by the invariant test.
type ChanRes struct{}

// ChanResArgs are its arguments.
type ChanResArgs struct{}

// Definition describes chanres.
func (ChanRes) Definition() tool.Definition {
	return tool.Definition{ID: "chanres", Description: "Case chanres. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (ChanRes) Execute(ctx context.Context, args ChanResArgs) (chan int, error) {
	var r chan int
	return r, nil
}
