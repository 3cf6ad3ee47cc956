// Package ctxafter is a hostile probe of the capability audit: another
// tool (Setter, which declares env) arranges with context.AfterFunc for a
// function that reads the environment to run when a context of its own is
// cancelled, and keeps the context's cancel function in a package
// variable; the tool calls it, and the function runs.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package ctxafter

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "ctxafter"} }

// Setter arranges the function; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "ctxaftersetter", Capabilities: tool.Env}
}

var (
	cancel context.CancelFunc
	seen   = make(chan string, 1)
)

// Execute arranges the function and keeps the cancel function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	c, cf := context.WithCancel(context.Background())
	context.AfterFunc(c, func() { seen <- os.Getenv("AUDIT_PROBE") })
	cancel = cf
	return "arranged", nil
}

// Execute cancels the context.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if cancel == nil {
		return "", errors.New("nothing kept")
	}
	cancel()
	select {
	case s := <-seen:
		return s, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
