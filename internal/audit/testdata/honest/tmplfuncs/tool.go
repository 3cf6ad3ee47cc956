// Package tmplfuncs is an honest pair of tools: both render a template
// through one helper given a FuncMap. Tool's functions change strings;
// Env's reads the environment, and Tool reaches none of it.
package tmplfuncs

import (
	"context"
	"os"
	"strings"
	"text/template"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a template and its data.
type Args struct {
	Template string            `json:"template"`
	Data     map[string]string `json:"data"`
}

func render(name, text string, funcs template.FuncMap, data map[string]string) (string, error) {
	t, err := template.New(name).Option("missingkey=zero").Funcs(funcs).Parse(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Tool renders a template with string functions.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "tmplfuncs", Description: "render a template"}
}

// Execute renders args.Template over args.Data.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return render("text", args.Template, template.FuncMap{
		"upper": strings.ToUpper,
		"lower": strings.ToLower,
		"trim":  strings.TrimSpace,
	}, args.Data)
}

// Env renders a template that may read environment variables.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "tmplfuncs_env", Description: "render with env", Capabilities: tool.Env}
}

// Execute renders args.Template with an env function.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return render("env", args.Template, template.FuncMap{"env": os.Getenv, "upper": strings.ToUpper}, args.Data)
}
