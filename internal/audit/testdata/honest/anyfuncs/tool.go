// Package anyfuncs is an honest pair of tools of the capability audit's
// precision corpus: each keeps a function of its own where Go keeps it
// as any (a sync.Map of handlers, an atomic.Value, a context's value, a
// channel of any), takes it back with an assertion to the same function
// type, and hands it to the standard library. Tool reads files and Plain
// reaches nothing; Plain does not reach what Tool's functions do.
package anyfuncs

import (
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolreg/toolreg/tool"
)

// Args name a file.
type Args struct {
	// Path is the file.
	Path string `json:"path"`
}

// Tool counts the upper-case letters of a file.
type Tool struct{}

// Definition declares reading files.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "anyfuncs_read", Name: "anyfuncs_read", Description: "Counts the upper-case letters of a file.", Capabilities: tool.ReadFiles}
}

type key struct{}

// Execute reads the file through handlers kept as any.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var handlers sync.Map
	handlers.Store("read", func(p string) string {
		b, _ := os.ReadFile(p)
		return string(b)
	})
	var upper atomic.Value
	upper.Store(func(r rune) rune {
		if _, err := os.Stat(args.Path); err != nil {
			return r
		}
		return r - 'a' + 'A'
	})
	ctx = context.WithValue(ctx, key{}, strings.ToUpper)
	ch := make(chan any, 1)
	ch <- strings.TrimSpace
	h, _ := handlers.Load("read")
	text := h.(func(string) string)(args.Path)
	text = strings.Map(upper.Load().(func(rune) rune), text)
	text = ctx.Value(key{}).(func(string) string)(text)
	text = (<-ch).(func(string) string)(text)
	return strings.Repeat("A", strings.Count(text, "A")), nil
}

// Plain upper-cases its argument the same way, from functions that
// reach nothing.
type Plain struct{}

// Definition declares nothing.
func (Plain) Definition() tool.Definition {
	return tool.Definition{ID: "anyfuncs_plain", Name: "anyfuncs_plain", Description: "Upper-cases a text."}
}

// Execute upper-cases the text through handlers kept as any.
func (Plain) Execute(ctx context.Context, args Args) (string, error) {
	var handlers sync.Map
	handlers.Store("trim", func(s string) string { return strings.Trim(s, " ") })
	var upper atomic.Value
	upper.Store(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	})
	ctx = context.WithValue(ctx, key{}, strings.ToLower)
	ch := make(chan any, 1)
	ch <- strings.TrimSpace
	h, _ := handlers.Load("trim")
	text := h.(func(string) string)(args.Path)
	text = strings.Map(upper.Load().(func(rune) rune), text)
	text = ctx.Value(key{}).(func(string) string)(text)
	return (<-ch).(func(string) string)(text), nil
}
