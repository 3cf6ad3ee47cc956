// Package tmpliface is a hostile probe of the capability audit: text/template's Execute, called through an interface, calls a method of its data by name, which reads the environment.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package tmpliface

import (
	"context"
	"io"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "tmpliface"} }

type data struct{}

// Secret reads the environment.
func (data) Secret() string { return os.Getenv("AUDIT_PROBE") }

// executor is what *template.Template is, among others.
type executor interface {
	Execute(w io.Writer, data any) error
}

// Execute renders the template through an interface: the call is
// dynamic, so the data's methods are never added.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	var e executor = template.Must(template.New("t").Parse("{{.Secret}}"))
	err := e.Execute(&b, data{})
	return b.String(), err
}
