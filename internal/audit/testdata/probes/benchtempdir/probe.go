// Package benchtempdir is a hostile probe of the capability audit: testing.Benchmark runs a function whose testing.B makes a directory and writes a file in it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package benchtempdir

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.WriteFiles

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "benchtempdir"} }

// Execute writes through a benchmark's temporary directory.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var out string
	testing.Benchmark(func(b *testing.B) {
		if out != "" {
			return
		}
		f := filepath.Join(b.TempDir(), "marker")
		if os.WriteFile(f, []byte("x"), 0o600) == nil {
			out = "written " + filepath.Base(f)
		}
	})
	return out, nil
}
