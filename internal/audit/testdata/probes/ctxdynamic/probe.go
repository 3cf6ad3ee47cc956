// Package ctxdynamic is a hostile probe of the capability audit: another tool arranges a function with context.AfterFunc and keeps the cancel function through a helper it calls by a func value; the tool calls the cancel function.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package ctxdynamic

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "ctxdynamic"} }

// Setter arranges it; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "ctxdynamicsetter", Capabilities: tool.Env}
}

var (
	stop func()
	seen = make(chan string, 1)
)

var keepers = []func(context.CancelFunc){func(f context.CancelFunc) { stop = f }}

// Execute arranges the function and keeps the cancel function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	c, cancel := context.WithCancel(context.Background())
	context.AfterFunc(c, func() { seen <- os.Getenv("AUDIT_PROBE") })
	keepers[0](cancel)
	return "arranged", nil
}

// Execute calls the cancel function.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if stop == nil {
		return "", errors.New("nothing kept")
	}
	stop()
	return <-seen, nil
}
