package toolbox

import (
	"context"
	"fmt"

	"github.com/toolreg/toolreg/tool"
)

// Pairs takes an instance of a generic type, which the warning says how
// to name: type IntPair Pair[int].
type Pairs struct{}

// Pair is a generic pair.
type Pair[T any] struct {
	// A is the first value.
	A T `json:"a"`
	// B is the second value.
	B T `json:"b"`
}

// PairsArgs has a Pair[int].
type PairsArgs struct {
	// P is the pair to add up.
	P Pair[int] `json:"p"`
}

// Definition describes pairs.
func (Pairs) Definition() tool.Definition {
	return tool.Definition{ID: "pairs", Description: "Add up a pair. Use it when a test needs this case of the checks."}
}

// Execute adds.
func (Pairs) Execute(ctx context.Context, args PairsArgs) (string, error) {
	return fmt.Sprint(args.P.A + args.P.B), nil
}
