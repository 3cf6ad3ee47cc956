// Package fieldswap is a hostile probe of the capability audit: a
// package variable's struct holds a harmless function in a field, and
// another tool (Setter, which declares env) puts a function that reads
// the environment there; the tool calls the field.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package fieldswap

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "fieldswap"} }

type op struct{ run func(string) string }

var current = op{run: strings.TrimSpace}

// Setter swaps the function; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "fieldswapsetter", Capabilities: tool.Env}
}

// Execute swaps the function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	current.run = os.Getenv
	return "swapped", nil
}

// Execute calls the function.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return current.run("AUDIT_PROBE"), nil
}
