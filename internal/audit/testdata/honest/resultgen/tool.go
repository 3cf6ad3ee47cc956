// Package resultgen is an honest pair of tools: both chain steps through
// a generic Result[T] with Try and Then, given functions and closures.
// Tool's steps parse its text; Env's first step reads an environment
// variable, and Tool reaches none of it.
package resultgen

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text or a variable's name.
type Args struct {
	Text string `json:"text"`
	Name string `json:"name"`
}

// Result is a value or an error.
type Result[T any] struct {
	Val T
	Err error
}

// Try runs f.
func Try[T any](f func() (T, error)) Result[T] {
	v, err := f()
	return Result[T]{v, err}
}

// Then runs f on r's value, unless r holds an error.
func Then[T, U any](r Result[T], f func(T) (U, error)) Result[U] {
	if r.Err != nil {
		return Result[U]{Err: r.Err}
	}
	v, err := f(r.Val)
	return Result[U]{v, err}
}

func trimmed(s string) (string, error) { return strings.TrimSpace(s), nil }

func double(n int) (int, error) { return 2 * n, nil }

// Tool doubles a number.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "resultgen", Description: "double a number"}
}

// Execute doubles args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	r := Then(Then(Then(Try(func() (string, error) { return args.Text, nil }), trimmed), strconv.Atoi), double)
	return fmt.Sprint(r.Val), r.Err
}

// Env doubles a variable.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "resultgen_env", Description: "double a variable", Capabilities: tool.Env}
}

// Execute doubles $args.Name.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	r := Try(func() (string, error) {
		v, ok := os.LookupEnv(args.Name)
		if !ok {
			return "", fmt.Errorf("%s is not set", args.Name)
		}
		return v, nil
	})
	n := Then(Then(Then(r, trimmed), strconv.Atoi), double)
	return fmt.Sprint(n.Val), n.Err
}
