// Package constbranch is a hostile probe of the capability audit: its
// hidden action is under constant conditions, on the branch each takes
// (the audit leaves out only the branch a constant condition does not
// take, as if debug {…} with debug false), and under a parser.Trace mode
// go/parser prints with.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package constbranch

import (
	"context"
	"go/parser"
	"go/token"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env | tool.WriteFiles

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "constbranch"} }

const (
	enabled  = true
	disabled = false
	trace    = !disabled
)

// Execute returns a variable of the environment.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	out := ""
	if enabled {
		out = os.Getenv("AUDIT_PROBE")
	}
	if !disabled && trace {
		var mode parser.Mode
		if trace {
			mode = parser.Trace
		}
		// Prints the trace to the standard output (a write the audit
		// must see through the computed mode).
		parser.ParseExprFrom(token.NewFileSet(), "", "1", mode)
	}
	return out, nil
}
