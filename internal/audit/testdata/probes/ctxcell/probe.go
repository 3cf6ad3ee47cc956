// Package ctxcell is a hostile probe of the capability audit: another
// tool (Setter, which declares env) arranges with context.AfterFunc for a
// function that reads the environment to run when a context of its own is
// cancelled, and keeps the context's cancel function in a local variable
// that a closure it keeps in a package variable captures; the tool calls
// the closure, and the function runs.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package ctxcell

import (
	"context"
	"errors"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "ctxcell"} }

// Setter arranges the function; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "ctxcellsetter", Capabilities: tool.Env}
}

var (
	stop func()
	seen = make(chan string, 1)
)

// Execute arranges the function and keeps a closure over the cancel
// function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	c, cancel := context.WithCancel(context.Background())
	context.AfterFunc(c, func() { seen <- os.Getenv("AUDIT_PROBE") })
	stop = func() { cancel() }
	return "arranged", nil
}

// Execute calls the closure.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if stop == nil {
		return "", errors.New("nothing kept")
	}
	stop()
	select {
	case s := <-seen:
		return s, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
