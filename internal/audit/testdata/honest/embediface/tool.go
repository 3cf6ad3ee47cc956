// Package embediface is an honest pair of tools of the capability
// audit's precision corpus: both pass a wrapper that embeds an interface
// to a helper that takes the interface (show(trimmed{fixed{}}, k)). Tool
// wraps a constant; Env wraps the environment, and Tool reaches none of
// it.
package embediface

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the name.
type Args struct {
	Name string `json:"name"`
}

type lookuper interface{ Lookup(name string) string }

type fixed struct{}

func (fixed) Lookup(name string) string { return " value of " + name + " " }

type environ struct{}

func (environ) Lookup(name string) string { return os.Getenv(name) }

// trimmed trims what the lookuper it embeds finds.
type trimmed struct{ lookuper }

func (t trimmed) Lookup(name string) string { return strings.TrimSpace(t.lookuper.Lookup(name)) }

func show(l lookuper, name string) string { return name + "=" + l.Lookup(name) }

// Tool shows a constant through the wrapper.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "embediface", Description: "show a constant"}
}

// Execute shows args.Name.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return show(trimmed{fixed{}}, args.Name), nil
}

// Env shows an environment variable through the wrapper.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "embediface_env", Description: "show a variable", Capabilities: tool.Env}
}

// Execute shows args.Name.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return show(trimmed{environ{}}, args.Name), nil
}
