// Package decoiface is an honest pair of tools of the capability audit's
// precision corpus: both read through a decorator that wraps the source
// it is given in a caching struct and returns it as the interface
// (withCache(fixed{}).Read(k), with func withCache(s source) source {
// return &cached{next: s, …} }). Tool's source is a constant; Env's reads
// the environment, and Tool reaches none of it.
package decoiface

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

func (fixed) Read(name string) string { return "value of " + name }

type environ struct{}

func (environ) Read(name string) string { return os.Getenv(name) }

type cached struct {
	next source
	seen map[string]string
}

func (c *cached) Read(name string) string {
	if v, ok := c.seen[name]; ok {
		return v
	}
	v := strings.TrimSpace(c.next.Read(name))
	c.seen[name] = v
	return v
}

// withCache remembers what s reads.
func withCache(s source) source { return &cached{next: s, seen: map[string]string{}} }

// Tool reads a constant twice through the cache.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "decoiface", Description: "read a constant"}
}

// Execute reads args.Name.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	s := withCache(fixed{})
	return s.Read(args.Name) + s.Read(args.Name), nil
}

// Env reads an environment variable through the cache.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "decoiface_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads args.Name.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return withCache(environ{}).Read(args.Name), nil
}
