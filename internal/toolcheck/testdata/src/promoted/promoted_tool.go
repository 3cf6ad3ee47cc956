package promoted

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// impl has the methods.
type impl struct{}

// Definition describes it.
func (*impl) Definition() tool.Definition { return tool.Definition{ID: "promoted", Description: "x"} }

// PromotedArgs are empty.
type PromotedArgs struct{}

// Execute runs it.
func (*impl) Execute(ctx context.Context, args PromotedArgs) (string, error) { return "", nil }

// Promoted embeds a pointer.
type Promoted struct{ *impl } // want `Promoted.Definition is promoted through the embedded field impl` `Promoted.Execute is promoted`
