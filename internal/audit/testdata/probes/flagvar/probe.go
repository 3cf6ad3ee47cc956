// Package flagvar is a hostile probe of the capability audit: another
// tool (Setter, which declares env) defines a flag of the command line
// whose Value's Set reads the environment, and the tool sets the flag
// with flag.Set, which calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package flagvar

import (
	"context"
	"flag"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "flagvar"} }

// Setter defines the flag; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "flagvarsetter", Capabilities: tool.Env}
}

var (
	once sync.Once
	seen string
)

type value struct{}

func (value) String() string { return "" }
func (value) Set(string) error {
	seen = os.Getenv("AUDIT_PROBE")
	return nil
}

// Execute defines the flag.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	once.Do(func() { flag.Var(value{}, "audit-probe-flagvar", "a probe") })
	return "defined", nil
}

// Execute sets the flag.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if err := flag.Set("audit-probe-flagvar", "x"); err != nil {
		return "", err
	}
	return seen, nil
}
