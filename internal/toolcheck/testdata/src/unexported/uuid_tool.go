package unexported

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// UUID takes unexported args.
type UUID struct{}

type uuidArgs struct{}

// Definition describes it.
func (UUID) Definition() tool.Definition {
	return tool.Definition{ID: "uuid", Description: "x. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (UUID) Execute(ctx context.Context, args uuidArgs) (string, error) { return "", nil } // want `type uuidArgs is unexported`
