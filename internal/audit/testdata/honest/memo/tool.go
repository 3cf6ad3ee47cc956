// Package memo is an honest pair of tools over a generic memoizing cache
// (Memo[K, V], a loader in a field, a map behind a mutex). Tool makes one
// for each call over a pure function; Lookup uses one its package keeps,
// over os.Getenv, and Tool reaches none of it.
package memo

import (
	"context"
	"os"
	"strings"
	"sync"
	"unicode"

	"github.com/toolreg/toolreg/tool"
)

// Args hold words or variable names.
type Args struct {
	Words []string `json:"words"`
}

// Memo remembers what its loader returned for each key.
type Memo[K comparable, V any] struct {
	mu   sync.Mutex
	load func(K) V
	m    map[K]V
}

// NewMemo returns a Memo over load.
func NewMemo[K comparable, V any](load func(K) V) *Memo[K, V] {
	return &Memo[K, V]{load: load, m: make(map[K]V)}
}

// Get returns load(k), once for each k.
func (c *Memo[K, V]) Get(k K) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	v := c.load(k)
	c.m[k] = v
	return v
}

var envVars = NewMemo(os.Getenv)

func title(s string) string {
	r := []rune(strings.ToLower(s))
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// Tool title-cases words.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "memo", Description: "title-case"}
}

// Execute title-cases args.Words, each distinct word once.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	m := NewMemo(title)
	out := make([]string, len(args.Words))
	for i, w := range args.Words {
		out[i] = m.Get(w)
	}
	return strings.Join(out, " "), nil
}

// Lookup shows environment variables.
type Lookup struct{}

// Definition declares env.
func (Lookup) Definition() tool.Definition {
	return tool.Definition{ID: "memo_env", Description: "show variables", Capabilities: tool.Env}
}

// Execute shows each of args.Words.
func (Lookup) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	for _, k := range args.Words {
		b.WriteString(k + "=" + envVars.Get(k) + "\n")
	}
	return b.String(), nil
}
