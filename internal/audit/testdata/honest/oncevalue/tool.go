// Package oncevalue is an honest tool of the capability audit's precision
// corpus: its defaults are read once, when first needed, through a
// function sync.OnceValue makes in a package initializer. The initializer
// only makes the function: start-up reaches nothing, and the tool, which
// calls it, reaches the reading.
package oncevalue

import (
	"context"
	"os"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Tool returns a default.
type Tool struct{}

// Args name the default.
type Args struct {
	Name string `json:"name"`
}

// Definition declares the reading.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "oncevalue", Description: "return a default", Capabilities: tool.ReadFiles}
}

var defaults = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	b, err := os.ReadFile("/etc/toolreg/defaults")
	if err != nil {
		return out
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			out[k] = v
		}
	}
	return out
})

// Execute returns the named default.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return defaults()[args.Name], nil
}
