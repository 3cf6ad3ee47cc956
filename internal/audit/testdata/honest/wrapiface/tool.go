// Package wrapiface is an honest pair of tools of the capability audit's
// precision corpus: both read through a wrapper that keeps the source it
// trims in a field of an interface type (trimmed{src: fixed{}}.Read(k)).
// Tool's source is a constant; Env's reads the environment, and Tool
// reaches none of it.
package wrapiface

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

type source interface{ Read(name string) string }

type fixed struct{}

func (fixed) Read(name string) string { return " value of " + name + " " }

type environ struct{}

func (environ) Read(name string) string { return os.Getenv(name) }

// trimmed trims what its source reads.
type trimmed struct{ src source }

func (t trimmed) Read(name string) string { return strings.TrimSpace(t.src.Read(name)) }

// Tool reads a constant through the wrapper.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "wrapiface", Description: "read a constant"}
}

// Execute reads args.Name.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return trimmed{src: fixed{}}.Read(args.Name), nil
}

// Env reads an environment variable through the wrapper.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "wrapiface_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads args.Name.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return trimmed{src: environ{}}.Read(args.Name), nil
}
