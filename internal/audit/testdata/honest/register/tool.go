// Package register is an honest tool of the capability audit's precision
// corpus: its start-up code registers what the tool uses later, as Go
// programs do: init functions append functions and interfaces to slices,
// call a registration helper that puts them in a map or a slice, and
// store one in a sync.Map, and a package variable is initialised by
// append. It calls none of them: start-up reaches nothing, and the tool,
// which calls them, reaches what they do.
package register

import (
	"context"
	"os"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Tool looks a name up in every source.
type Tool struct{}

// Args name what to look up.
type Args struct {
	Name string `json:"name"`
}

// Definition declares the environment.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "register", Description: "look a name up", Capabilities: tool.Env}
}

type source interface{ get(string) string }

type envSource struct{}

func (envSource) get(k string) string { return os.Getenv(k) }

type hook struct {
	name string
	run  func(string) string
}

var (
	lookups = append([]func(string) string(nil), strings.ToUpper)
	named   = map[string]func(string) string{}
	sources []source
	hooks   []hook
	funcs   sync.Map
)

// registerFunc and registerSource are the registration helpers.
func registerFunc(name string, f func(string) string) { named[name] = f }
func registerSource(s source)                         { sources = append(sources, s) }

func init() {
	lookups = append(lookups, os.Getenv)
	registerFunc("env", os.Getenv)
	registerSource(envSource{})
	hooks = append(hooks, hook{"env", os.Getenv})
	funcs.Store("env", os.Getenv)
}

// Execute looks args.Name up.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	for _, f := range lookups {
		b.WriteString(f(args.Name))
	}
	b.WriteString(named["env"](args.Name))
	for _, s := range sources {
		b.WriteString(s.get(args.Name))
	}
	for _, h := range hooks {
		b.WriteString(h.run(args.Name))
	}
	if f, ok := funcs.Load("env"); ok {
		b.WriteString(f.(func(string) string)(args.Name))
	}
	return b.String(), nil
}
