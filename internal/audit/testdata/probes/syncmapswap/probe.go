// Package syncmapswap is a hostile probe of the capability audit: a
// sync.Map package variable holds a harmless function start-up code
// stored, and another tool (Setter, which declares env) stores one that
// reads the environment under the same key; the tool loads it and calls
// it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package syncmapswap

import (
	"context"
	"errors"
	"os"
	"strings"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "syncmapswap"} }

var funcs sync.Map

func init() { funcs.Store("f", strings.TrimSpace) }

// Setter stores another function; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "syncmapswapsetter", Capabilities: tool.Env}
}

// Execute stores the function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	funcs.Store("f", os.Getenv)
	return "stored", nil
}

// Execute calls the stored function.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	f, ok := funcs.Load("f")
	if !ok {
		return "", errors.New("nothing stored")
	}
	return f.(func(string) string)("AUDIT_PROBE"), nil
}
