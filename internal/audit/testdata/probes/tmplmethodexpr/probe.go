// Package tmplmethodexpr is a hostile probe of the capability audit: text/template's Execute, called as a method expression, calls a method of its data by name, which reads the environment.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package tmplmethodexpr

import (
	"context"
	"os"
	"strings"
	"text/template"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "tmplmethodexpr"} }

type data struct{}

// Secret reads the environment.
func (data) Secret() string { return os.Getenv("AUDIT_PROBE") }

// Execute renders the template through the method expression
// (*template.Template).Execute: the call's callee is the $thunk wrapper,
// not (*Template).Execute, so the data's methods are never added.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	t := template.Must(template.New("t").Parse("{{.Secret}}"))
	err := (*template.Template).Execute(t, &b, data{})
	return b.String(), err
}
