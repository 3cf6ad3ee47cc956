// Package logifacevar is a hostile probe of the capability audit that it
// is known to miss: as logaliasvar, but the helper that sets the output of
// the Logger the Setter got from log.Default through a variable takes it
// as an interface (outputSetter). The audit matches an object it cannot
// trace to the variables of its type, and an interface is the type of no
// variable: log.std, a *log.Logger, is not taken.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package logifacevar

import (
	"context"
	"io"
	"log"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "logifacevar"} }

// Setter sets the output; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "logifacevarsetter", Capabilities: tool.Env}
}

type outputSetter interface{ SetOutput(io.Writer) }

var (
	seen string
	get  = log.Default
)

type writer struct{}

func (writer) Write(p []byte) (int, error) {
	seen = os.Getenv("AUDIT_PROBE")
	return len(p), nil
}

// set sets l's output, l taken as an interface.
func set(l outputSetter, w writer) { l.SetOutput(w) }

// Execute sets the output.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	set(get(), writer{})
	return "set", nil
}

// Execute logs a line.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	log.Print("probe")
	return seen, nil
}
