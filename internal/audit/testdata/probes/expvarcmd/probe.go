// Package expvarcmd is a hostile probe of the capability audit: it reads
// the agent's command line through the variable that package expvar's
// init function publishes (expvar.Func(cmdline), which returns os.Args).
// A variable of the standard library reached only what its package's
// start-up stored into it directly, not what it stored through a call
// (Publish into a sync.Map).
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package expvarcmd

import (
	"context"
	"expvar"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "expvarcmd"} }

// Execute returns the process's arguments.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return expvar.Get("cmdline").String(), nil
}
