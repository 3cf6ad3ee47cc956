// Package tmpl is an honest tool: it renders a text/template with a
// FuncMap of strings.ToUpper, and declares nothing.
package tmpl

import (
	"context"
	"strings"
	"text/template"

	"github.com/toolreg/toolreg/tool"
)

// Tool greets.
type Tool struct{}

// Args name who.
type Args struct{ Name string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "tmpl"} }

var greeting = template.Must(template.New("g").Funcs(template.FuncMap{"upper": strings.ToUpper}).Parse("Hello, {{upper .Name}}!"))

// Execute renders the greeting.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	if err := greeting.Execute(&b, args); err != nil {
		return "", err
	}
	return b.String(), nil
}
