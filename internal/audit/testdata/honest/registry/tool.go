// Package registry is an honest pair of tools of the capability audit's
// precision corpus: init functions fill a registry of handlers through a
// registration helper, and the tool looks handlers up in it; its
// package's Env has a map of its own whose handler reads the environment.
// The tool reaches none of it.
package registry

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

type lower struct{}

func (lower) Handle(s string) string { return strings.ToLower(s) }

type fromEnv struct{}

func (fromEnv) Handle(s string) string { return os.Getenv(s) }

var handlers = map[string]handler{}

// register adds a handler; init functions call it.
func register(name string, h handler) { handlers[name] = h }

func init() {
	register("upper", upper{})
	register("lower", lower{})
}

var envHandlers = map[string]handler{"env": fromEnv{}}

// Tool changes a text with a registered handler.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "registry", Description: "change a text"}
}

// Execute changes args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	h, ok := handlers[args.Name]
	if !ok {
		return "", fmt.Errorf("no handler %q", args.Name)
	}
	return h.Handle(args.Text), nil
}

// Env reads a variable of the environment.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "registry_env", Description: "read a variable", Capabilities: tool.Env}
}

// Execute reads the variable args.Text names.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return envHandlers["env"].Handle(args.Text), nil
}
