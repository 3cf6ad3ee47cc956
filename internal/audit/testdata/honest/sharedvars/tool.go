// Package sharedvars is an honest pair of tools of the capability
// audit's precision corpus: both pass values their package initializer
// keeps in package variables (an interface, a function) to the same
// helpers, which call them. Tool transforms text and Env reads the
// environment; neither reaches what the other's values do.
package sharedvars

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

type transformer interface{ Transform(string) string }

type upper struct{}

func (upper) Transform(s string) string { return strings.ToUpper(s) }

type fromEnv struct{}

func (fromEnv) Transform(s string) string { return os.Getenv(s) }

var (
	shout  transformer = upper{}
	lookup transformer = fromEnv{}
	trim               = strings.TrimSpace
	getenv             = os.Getenv
)

// apply and call are the helpers both tools use.
func apply(t transformer, s string) string        { return t.Transform(s) }
func call(f func(string) string, s string) string { return f(s) }

// Tool upper-cases and trims a text.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "sharedvars", Description: "upper-case a text"}
}

// Execute upper-cases and trims args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return call(trim, apply(shout, args.Text)), nil
}

// Env reads a variable of the environment.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "sharedvars_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads the variable args.Text names, twice.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return apply(lookup, args.Text) + call(getenv, args.Text), nil
}
