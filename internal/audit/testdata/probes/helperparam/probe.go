// Package helperparam is a hostile probe of the capability audit: a
// helper calls its func parameter, and the tool passes it a function
// that another tool (Setter, which declares env) made and kept in a
// slice: the helper's call is charged with what the values it may get
// from memory do, not only with the functions its callers make.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package helperparam

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "helperparam"} }

var hooks []func() string

// Setter keeps a function that reads the environment; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "helperparamsetter", Capabilities: tool.Env}
}

// Execute keeps the function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	hooks = append(hooks, func() string { return os.Getenv("AUDIT_PROBE") })
	return "kept", nil
}

// call calls f.
func call(f func() string) string { return f() }

// Execute calls the kept function through the helper.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if len(hooks) == 0 {
		return "", errors.New("nothing kept")
	}
	return call(hooks[len(hooks)-1]), nil
}
