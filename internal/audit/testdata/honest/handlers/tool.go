// Package handlers is an honest pair of tools of the capability audit's
// precision corpus: package variables hold map literals of handlers (an
// interface) and of functions, one for each tool. Tool looks its own up;
// Env's hold handlers and functions that read the environment, and Tool
// reaches none of them.
package handlers

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args name the handler and the text.
type Args struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type handler interface{ Handle(string) string }

type upper struct{}

func (upper) Handle(s string) string { return strings.ToUpper(s) }

type fromEnv struct{}

func (fromEnv) Handle(s string) string { return os.Getenv(s) }

var (
	textHandlers = map[string]handler{"upper": upper{}}
	textFuncs    = map[string]func(string) string{"lower": strings.ToLower, "trim": strings.TrimSpace}
	envHandlers  = map[string]handler{"env": fromEnv{}}
	envFuncs     = map[string]func(string) string{"env": os.Getenv}
)

// Tool changes a text with a handler or a function.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "handlers", Description: "change a text"}
}

// Execute changes args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if h, ok := textHandlers[args.Name]; ok {
		return h.Handle(args.Text), nil
	}
	if f, ok := textFuncs[args.Name]; ok {
		return f(args.Text), nil
	}
	return "", fmt.Errorf("no handler %q", args.Name)
}

// Env reads a variable of the environment.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "handlers_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads the variable args.Text names.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return envHandlers["env"].Handle(args.Text) + envFuncs["env"](args.Text), nil
}
