// Package atomicfunc is a hostile probe of the capability audit: a
// function that reads the environment is kept in an atomic.Value (as
// any), loaded and asserted back by the tool, and handed to the standard
// library (strings.Map), which calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package atomicfunc

import (
	"context"
	"os"
	"strings"
	"sync/atomic"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "atomicfunc"} }

var seen string

// Execute maps a string with the function the value holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var v atomic.Value
	v.Store(func(r rune) rune {
		seen = os.Getenv("AUDIT_PROBE")
		return r
	})
	strings.Map(v.Load().(func(rune) rune), "x")
	return seen, nil
}
