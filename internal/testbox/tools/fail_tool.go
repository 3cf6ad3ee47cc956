package tools

import (
	"context"
	"errors"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// ErrFail is the error fail returns.
var ErrFail = errors.New("disk on fire")

// Fail always fails.
type Fail struct{}

// FailArgs are the arguments of fail: none.
type FailArgs struct{}

// Definition describes fail.
func (Fail) Definition() tool.Definition {
	return tool.Definition{
		ID:          "fail",
		Description: "Always fail, with the error \"disk on fire\". Use it when a test needs a tool whose call fails.",
		Timeout:     5 * time.Second,
	}
}

// Execute fails.
func (Fail) Execute(ctx context.Context, args FailArgs) (string, error) {
	return "", ErrFail
}
