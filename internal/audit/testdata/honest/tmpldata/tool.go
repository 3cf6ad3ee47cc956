// Package tmpldata is an honest pair of tools of the capability audit's
// precision corpus: both render templates through a helper that takes
// the data as any, Tool over a map literal of strings and numbers and a
// struct without methods, Env over a value whose method reads the
// environment. A template calls its data's exported methods: Tool's have
// none, and Tool reaches nothing.
package tmpldata

import (
	"context"
	"os"
	"strings"
	"text/template"

	"github.com/toolreg/toolreg/tool"
)

// Args name who to greet.
type Args struct {
	Name string `json:"name"`
}

var greet = template.Must(template.New("greet").Parse(`Hello, {{.name}} ({{.n}} letters)`))

// render executes t over data.
func render(t *template.Template, data any) (string, error) {
	var b strings.Builder
	err := t.Execute(&b, data)
	return b.String(), err
}

// Tool greets someone.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "tmpldata", Description: "greet someone"}
}

// Execute greets args.Name, twice.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	a, err := render(greet, map[string]any{"name": args.Name, "n": len(args.Name)})
	if err != nil {
		return "", err
	}
	b, err := greet.Execute(new(strings.Builder), map[string]any{"name": strings.ToUpper(args.Name), "n": 0}), nil
	_ = b
	return a, err
}

type user struct{}

// Name is the user's name, from the environment.
func (user) Name() string { return os.Getenv("USER") }

var hello = template.Must(template.New("hello").Parse(`Hello, {{.Name}}`))

// Env greets the user.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "tmpldata_env", Description: "greet the user", Capabilities: tool.Env}
}

// Execute greets the user.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return render(hello, user{})
}
