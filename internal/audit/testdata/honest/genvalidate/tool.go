// Package genvalidate is honest/validate with its assertion in a generic
// helper, as many Go programs write it (as[I any](v any) (I, bool)). It
// declares nothing and reaches nothing, alone and in a program with
// configcheck, whose Config also has Validate() error and reads a file.
package genvalidate

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

// as returns v as an I, if it is one.
func as[I any](v any) (I, bool) {
	i, ok := v.(I)
	return i, ok
}

// check validates v when it can.
func check(v any) error {
	if x, ok := as[validator](v); ok {
		return x.Validate()
	}
	return nil
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "genvalidate"} }

// Execute doubles N after checking it.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if err := check(args); err != nil {
		return "", err
	}
	return strconv.Itoa(2 * args.N), nil
}
