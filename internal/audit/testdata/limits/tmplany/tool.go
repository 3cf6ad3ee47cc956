// Package tmplany documents a limit of the audit: a template over data
// that holds an interface value the audit cannot trace (an error a call
// returned, in a map[string]any) calls methods the audit cannot name, so
// it fails closed (unsafe) even for an honest tool. A map literal whose
// values are conversions of known types is followed (honest tmpldata).
package tmplany

import (
	"context"
	"strings"
	"text/template"
)

// Tool renders a greeting.
type Tool struct{}

// Args name who.
type Args struct{ Name string }

var greeting = template.Must(template.New("g").Parse("Hello, {{.name}}!"))

// Execute renders the greeting over a map.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	err := greeting.Execute(&b, map[string]any{"name": args.Name, "err": ctx.Err()})
	return b.String(), err
}
