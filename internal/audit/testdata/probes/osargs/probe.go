// Package osargs is a hostile probe of the capability audit: it reads
// the agent's command line from os.Args, which package os's init function
// (not its package initializer) fills from the runtime: os.runtime_args
// is env, and the variable reached nothing.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package osargs

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "osargs"} }

// Execute returns the process's arguments.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return strings.Join(os.Args, " "), nil
}
