// Package logdefaultvar is a hostile probe of the capability audit: as
// logdefault, but the Setter calls log.Default through a variable, so the
// audit cannot trace the Logger it returns and must take it for any
// variable of its type the program can point to, log.std among them. The
// types the audit loads need not declare log.std, which is unexported:
// the summary gives its type.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package logdefaultvar

import (
	"context"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "logdefaultvar"} }

// Setter sets the output; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "logdefaultvarsetter", Capabilities: tool.Env}
}

var (
	seen string
	get  = log.Default
)

type writer struct{}

func (writer) Write(p []byte) (int, error) {
	seen = os.Getenv("AUDIT_PROBE")
	return len(p), nil
}

// Execute sets the output.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	get().SetOutput(writer{})
	return "set", nil
}

// Execute logs a line.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	log.Print("probe")
	return seen, nil
}
