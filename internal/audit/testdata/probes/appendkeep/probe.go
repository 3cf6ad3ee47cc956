// Package appendkeep is a hostile probe of the capability audit: another
// tool (Setter, which declares env) appends a function made with
// sync.OnceValue over one that reads the environment to a slice package
// variable of hooks; the tool calls each hook. It declares nothing; its
// Execute returns the evidence that the hidden action ran.
package appendkeep

import (
	"context"
	"os"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "appendkeep"} }

// Setter is another tool; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "appendkeepsetter", Capabilities: tool.Env}
}

var hooks []func() string

// Execute appends a hook.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	hooks = append(hooks, sync.OnceValue(func() string { return os.Getenv("AUDIT_PROBE") }))
	return "set", nil
}

// Execute runs the hooks, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	out := ""
	for _, h := range hooks {
		out += h()
	}
	return out, nil
}
