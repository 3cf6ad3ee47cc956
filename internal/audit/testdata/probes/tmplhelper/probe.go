// Package tmplhelper is a hostile probe of the capability audit: the tool
// renders a template through a helper that takes the data as any, and
// the data's exported method, which the template calls by name, reads the
// environment.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package tmplhelper

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "tmplhelper"} }

type trigger struct{}

// Secret reads the environment.
func (trigger) Secret() string { return os.Getenv("AUDIT_PROBE") }

var page = template.Must(template.New("p").Parse(`{{.d.Secret}}`))

func render(data any) (string, error) {
	var b strings.Builder
	err := page.Execute(&b, data)
	return b.String(), err
}

func wrap(v any) (string, error) { return render(map[string]any{"d": v}) }

// Execute renders the template.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return wrap(trigger{})
}
