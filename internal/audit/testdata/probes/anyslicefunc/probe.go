// Package anyslicefunc is a hostile probe of the capability audit: a
// function that reads the environment is kept in a []any, asserted back
// by the tool after a round trip through a channel of any, and handed to
// the standard library (strings.Map), which calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package anyslicefunc

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "anyslicefunc"} }

var seen string

// Execute maps a string with the function the slice holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	items := []any{"x", func(r rune) rune {
		seen = os.Getenv("AUDIT_PROBE")
		return r
	}}
	ch := make(chan any, 1)
	ch <- items[1]
	strings.Map((<-ch).(func(rune) rune), "x")
	return seen, nil
}
