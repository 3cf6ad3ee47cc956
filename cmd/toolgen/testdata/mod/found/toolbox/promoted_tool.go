package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

type impl struct{}

// Definition describes promoted.
func (*impl) Definition() tool.Definition {
	return tool.Definition{ID: "promoted", Description: "Case promoted."}
}

// PromotedArgs are empty.
type PromotedArgs struct{}

// Execute answers.
func (*impl) Execute(ctx context.Context, args PromotedArgs) (string, error) { return "", nil }

// Promoted gets its methods through a pointer that is nil in its zero value.
type Promoted struct{ *impl }
