package nodef

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// NoDef has no Definition.
type NoDef struct{} // want `tool type NoDef has no Definition method`

// NoDefArgs are empty.
type NoDefArgs struct{}

// Execute runs it.
func (NoDef) Execute(ctx context.Context, args NoDefArgs) (string, error) { return "", nil }

var _ tool.Definition
