// Package gencache is an honest pair of tools of the capability audit's
// precision corpus: both read through a generic cache whose constructor
// keeps the function that loads a missing value
// (NewCache(strings.ToUpper).Get(k)). Tool's cache upper-cases; Env's
// reads the environment, and Tool reaches none of it.
package gencache

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

// Cache keeps the values load gave for each key.
type Cache[K comparable, V any] struct {
	mu   sync.Mutex
	m    map[K]V
	load func(K) V
}

// NewCache returns an empty cache that loads missing values with load.
func NewCache[K comparable, V any](load func(K) V) *Cache[K, V] {
	return &Cache[K, V]{m: map[K]V{}, load: load}
}

// Get returns the value of k, loaded once.
func (c *Cache[K, V]) Get(k K) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	v := c.load(k)
	c.m[k] = v
	return v
}

// Tool upper-cases a key through a cache.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "gencache", Description: "upper-case a key"}
}

// Execute upper-cases args.Key.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return NewCache(strings.ToUpper).Get(args.Key), nil
}

// Env reads an environment variable through a cache.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "gencache_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads args.Key.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return NewCache(os.Getenv).Get(args.Key), nil
}
