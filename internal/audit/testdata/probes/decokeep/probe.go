// Package decokeep is a hostile probe of the capability audit: a
// decorator returns a caching struct over the source it is given as the
// interface; another tool (Setter, which declares env) keeps one over a
// source that reads the environment in a package variable, and the tool
// reads through the kept one.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package decokeep

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "decokeep"} }

type source interface{ Read(name string) string }

type fixed struct{}

func (fixed) Read(name string) string { return name }

type environ struct{}

func (environ) Read(name string) string { return os.Getenv(name) }

type cached struct{ next source }

func (c *cached) Read(name string) string { return strings.TrimSpace(c.next.Read(name)) }

func withCache(s source) source { return &cached{next: s} }

var kept source

// Setter keeps a decorated source; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "decokeepsetter", Capabilities: tool.Env}
}

// Execute keeps the source.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	kept = withCache(environ{})
	return "kept", nil
}

// Execute reads a constant, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return withCache(fixed{}).Read("x") + kept.Read("AUDIT_PROBE"), nil
}
