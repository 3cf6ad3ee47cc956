// Package oncefunc is a hostile probe of the capability audit: another
// tool (Setter, which declares env) wraps a function that reads the
// environment with sync.OnceFunc and keeps the wrapper in a package
// variable; the tool calls the wrapper, which calls the function.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package oncefunc

import (
	"context"
	"errors"
	"os"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "oncefunc"} }

// Setter wraps the function; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "oncefuncsetter", Capabilities: tool.Env}
}

var (
	kept func()
	seen string
)

// Execute wraps the function and keeps the wrapper.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	kept = sync.OnceFunc(func() { seen = os.Getenv("AUDIT_PROBE") })
	return "kept", nil
}

// Execute calls the wrapper.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if kept == nil {
		return "", errors.New("nothing kept")
	}
	kept()
	return seen, nil
}
