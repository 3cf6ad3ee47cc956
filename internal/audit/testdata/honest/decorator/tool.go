// Package decorator is an honest pair of tools of the capability audit's
// precision corpus: a helper returns a closure that calls the function it
// is given (a decorator), and package variables keep what it makes of
// strings.ToUpper and of os.Getenv. Tool calls the first, Env the
// second; the start-up code that makes them reaches nothing, and neither
// tool reaches what the other's function does.
package decorator

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the text.
type Args struct {
	Text string `json:"text"`
}

// trimmed returns f, called with its argument's spaces trimmed.
func trimmed(f func(string) string) func(string) string {
	return func(s string) string { return f(strings.TrimSpace(s)) }
}

var (
	shout  = trimmed(strings.ToUpper)
	getenv = trimmed(os.Getenv)
)

// Tool upper-cases a trimmed text.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "decorator", Description: "upper-case a text"}
}

// Execute upper-cases args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return shout(args.Text), nil
}

// Env reads a variable of the environment.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "decorator_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads the variable args.Text names.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return getenv(args.Text), nil
}
