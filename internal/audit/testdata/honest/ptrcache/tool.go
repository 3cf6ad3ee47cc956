// Package ptrcache is an honest pair of tools of the capability audit's
// precision corpus: a cache type holds its loader in an unexported field,
// and its method with a pointer receiver calls it. Tool makes one over
// strings.ToUpper, Env one over os.Getenv; Tool reaches none of Env's.
package ptrcache

import (
	"context"
	"os"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the key.
type Args struct {
	Key string `json:"key"`
}

// cache remembers what load returns for each key.
type cache struct {
	mu   sync.Mutex
	m    map[string]string
	load func(string) string
}

// get returns the value of k, loading it once.
func (c *cache) get(k string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	v := c.load(k)
	c.m[k] = v
	return v
}

// Tool upper-cases a key.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "ptrcache", Description: "upper-case a key"}
}

// Execute upper-cases args.Key.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	c := &cache{m: map[string]string{}, load: strings.ToUpper}
	return c.get(args.Key), nil
}

// Env reads a variable of the environment.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "ptrcache_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads the variable args.Key names.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	c := &cache{m: map[string]string{}, load: os.Getenv}
	return c.get(args.Key), nil
}
