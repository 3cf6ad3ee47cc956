// Package bufiowrap is a hostile probe of the capability audit: another
// tool (Setter, which declares env) wraps a reader whose Read reads the
// environment in a bufio.Reader and keeps it in a package variable; the
// tool reads a line from the kept bufio.Reader, which calls Read.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package bufiowrap

import (
	"bufio"
	"context"
	"errors"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "bufiowrap"} }

// Setter wraps the reader; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "bufiowrapsetter", Capabilities: tool.Env}
}

type envReader struct{ r *strings.Reader }

func (e *envReader) Read(p []byte) (int, error) {
	if e.r == nil {
		e.r = strings.NewReader(os.Getenv("AUDIT_PROBE") + "\n")
	}
	return e.r.Read(p)
}

var kept *bufio.Reader

// Execute wraps the reader and keeps it.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	kept = bufio.NewReader(&envReader{})
	return "kept", nil
}

// Execute reads a line.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if kept == nil {
		return "", errors.New("nothing kept")
	}
	return kept.ReadString('\n')
}
