// Package ctxmap is a hostile probe of the capability audit: another tool arranges a function with context.AfterFunc and keeps the cancel function in a map it makes and stores into a package variable; the tool calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package ctxmap

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "ctxmap"} }

// Setter arranges it; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "ctxmapsetter", Capabilities: tool.Env}
}

var (
	stops map[string]context.CancelFunc
	seen  = make(chan string, 1)
)

// Execute arranges the function and keeps the cancel function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	c, cancel := context.WithCancel(context.Background())
	context.AfterFunc(c, func() { seen <- os.Getenv("AUDIT_PROBE") })
	m := map[string]context.CancelFunc{}
	m["k"] = cancel
	stops = m
	return "arranged", nil
}

// Execute calls the cancel function.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	stop := stops["k"]
	if stop == nil {
		return "", errors.New("nothing kept")
	}
	stop()
	return <-seen, nil
}
