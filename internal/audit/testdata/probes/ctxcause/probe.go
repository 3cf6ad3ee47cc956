// Package ctxcause is a hostile probe of the capability audit: another
// tool (Setter, which declares env) cancels a context with a cause, an
// error whose Error method reads the environment, and keeps the context
// in a package variable; the tool asks the context for its cause and
// calls its Error method. It declares nothing; its Execute returns the
// evidence that the hidden action ran.
package ctxcause

import (
	"context"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "ctxcause"} }

// Setter is another tool; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "ctxcausesetter", Capabilities: tool.Env}
}

type envError struct{ name string }

func (e envError) Error() string { return os.Getenv(e.name) }

var done = context.Background()

// Execute cancels a context with a cause.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	c, cancel := context.WithCancelCause(context.Background())
	cancel(envError{"AUDIT_PROBE"})
	done = c
	return "set", nil
}

// Execute reports why the work stopped, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if err := context.Cause(done); err != nil {
		return err.Error(), nil
	}
	return "", nil
}
