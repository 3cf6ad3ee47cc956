// Package fieldmethod is an honest pair of tools of the capability
// audit's precision corpus: a struct type holds a function in a field
// and a method with a value receiver calls it. Tool makes one of
// strings.ToUpper, Env one of os.Getenv; Tool reaches none of Env's.
package fieldmethod

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the key.
type Args struct {
	Key string `json:"key"`
}

type lookup struct {
	name string
	load func(string) string
}

// get loads k.
func (l lookup) get(k string) string { return l.name + ": " + l.load(strings.TrimSpace(k)) }

// Tool upper-cases a key.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "fieldmethod", Description: "upper-case a key"}
}

// Execute upper-cases args.Key.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	l := lookup{name: "upper", load: strings.ToUpper}
	return l.get(args.Key), nil
}

// Env reads a variable of the environment.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "fieldmethod_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads the variable args.Key names.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return lookup{name: "env", load: os.Getenv}.get(args.Key), nil
}
