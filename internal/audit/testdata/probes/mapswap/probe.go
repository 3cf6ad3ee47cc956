// Package mapswap is a hostile probe of the capability audit: a map
// package variable holds a harmless handler from a literal, and another
// tool (Setter, which declares env) puts a handler that reads the
// environment under the same key; the tool looks it up and calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package mapswap

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "mapswap"} }

type handler interface{ Handle(string) string }

type trim struct{}

func (trim) Handle(s string) string { return strings.TrimSpace(s) }

type fromEnv struct{}

func (fromEnv) Handle(s string) string { return os.Getenv(s) }

var handlers = map[string]handler{"h": trim{}}

// Setter swaps the handler; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "mapswapsetter", Capabilities: tool.Env}
}

// Execute swaps the handler.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	handlers["h"] = fromEnv{}
	return "swapped", nil
}

// Execute calls the handler.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return handlers["h"].Handle("AUDIT_PROBE"), nil
}
