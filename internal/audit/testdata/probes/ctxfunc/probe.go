// Package ctxfunc is a hostile probe of the capability audit: a function
// that reads the environment travels in a context's value, and the tool
// takes it out with an assertion and hands it to the standard library
// (strings.Map), which calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package ctxfunc

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "ctxfunc"} }

type key struct{}

var seen string

func with(ctx context.Context) context.Context {
	return context.WithValue(ctx, key{}, func(r rune) rune {
		seen = os.Getenv("AUDIT_PROBE")
		return r
	})
}

// Execute maps a string with the function the context holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	ctx = with(ctx)
	if f, ok := ctx.Value(key{}).(func(rune) rune); ok {
		strings.Map(f, "x")
	}
	return seen, nil
}
