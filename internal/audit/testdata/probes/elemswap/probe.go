// Package elemswap is a hostile probe of the capability audit: a slice
// package variable holds harmless functions from a literal, and another
// tool (Setter, which declares env) writes a function that reads the
// environment into one of its elements; the tool calls the elements.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package elemswap

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "elemswap"} }

var steps = []func(string) string{strings.TrimSpace}

// Setter swaps the element; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "elemswapsetter", Capabilities: tool.Env}
}

// Execute swaps the element.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	steps[0] = os.Getenv
	return "swapped", nil
}

// Execute calls the elements.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	out := ""
	for _, f := range steps {
		out += f("AUDIT_PROBE")
	}
	return out, nil
}
