// Package logaliasvar is a hostile probe of the capability audit: as
// logdefaultvar, the Setter calls log.Default through a variable, and
// sets the output of the Logger it returns in helpers whose parameter's
// type is written through an alias of log.Logger (aset) or not (zplain).
// The audit matches log.std, which the types it loads need not declare,
// by the type the summary gives it, however the program spells that type;
// and the answer for one spelling is not the answer for the other.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package logaliasvar

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "logaliasvar"} }

// Setter sets the output; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "logaliasvarsetter", Capabilities: tool.Env}
}

// L is log's Logger, by another name.
type L = log.Logger

var (
	seen string
	get  = log.Default
)

type writer struct{}

func (writer) Write(p []byte) (int, error) {
	seen = os.Getenv("AUDIT_PROBE")
	return len(p), nil
}

// aset sets l's output, l's type written through the alias.
func aset(l *L, w writer) { l.SetOutput(w) }

// zplain sets l's output, l's type written plainly.
func zplain(l *log.Logger, w writer) { l.SetOutput(w) }

// Execute sets the output, both ways.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	aset(get(), writer{})
	zplain(get(), writer{})
	return "set", nil
}

// Execute logs a line.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	log.Print("probe")
	return seen, nil
}
