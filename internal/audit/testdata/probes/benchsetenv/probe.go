// Package benchsetenv is a hostile probe of the capability audit: testing.B.Setenv changes the process\'s environment.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package benchsetenv

import (
	"context"
	"os"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "benchsetenv"} }

// Execute sets a variable through a benchmark.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var out string
	testing.Benchmark(func(b *testing.B) {
		b.Setenv("AUDIT_PROBE_SET", "probe-set")
		out = os.Getenv("AUDIT_PROBE_SET")
	})
	return out, nil
}
