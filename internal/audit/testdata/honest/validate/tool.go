// Package validate is an honest tool: pure arithmetic on its arguments,
// which it checks through an optional Validate method, as many Go
// programs check values (if v, ok := x.(validator); ok). It declares
// nothing, and reaches nothing, alone and in a program with configcheck,
// whose Config also has Validate() error and reads a file there: the
// assertion holds only the values this tool's code makes.
package validate

import (
	"context"
	"errors"
	"strconv"

	"github.com/toolreg/toolreg/tool"
)

// Tool doubles a number.
type Tool struct{}

// Args hold the number.
type Args struct{ N int }

// Validate rejects negative numbers.
func (a Args) Validate() error {
	if a.N < 0 {
		return errors.New("n must not be negative")
	}
	return nil
}

// validator is implemented by values that can check themselves.
type validator interface{ Validate() error }

// check validates v when it can.
func check(v any) error {
	if x, ok := v.(validator); ok {
		return x.Validate()
	}
	return nil
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "validate"} }

// Execute doubles N after checking it.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if err := check(args); err != nil {
		return "", err
	}
	return strconv.Itoa(2 * args.N), nil
}
