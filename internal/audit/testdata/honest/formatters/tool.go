// Package formatters is an honest pair of tools of the capability
// audit's precision corpus: package variables of one struct type hold a
// name and a function each (var upper = formatter{"upper",
// strings.ToUpper}); Tool calls the function of a copy of one of two, Env
// that of a third, which reads the environment. Neither reaches what the
// other's functions do.
package formatters

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the text.
type Args struct {
	Text  string `json:"text"`
	Lower bool   `json:"lower"`
}

type formatter struct {
	name   string
	render func(string) string
}

var (
	upper   = formatter{"upper", strings.ToUpper}
	lower   = formatter{name: "lower", render: strings.ToLower}
	fromEnv = formatter{"env", os.Getenv}
)

// Tool changes a text's case.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "formatters", Description: "change a text's case"}
}

// Execute changes the case of args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	f := upper
	if args.Lower {
		f = lower
	}
	return f.name + ": " + f.render(args.Text) + " " + upper.render(args.Text), nil
}

// Env reads a variable of the environment.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "formatters_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads the variable args.Text names.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return fromEnv.name + ": " + fromEnv.render(args.Text), nil
}
