// Package pipeline is an honest pair of tools of the capability audit's
// precision corpus: both run a text through a pipeline of steps a
// constructor keeps in a slice field (newPipeline(trim{}, upper{}).run(s),
// with for _, st := range p.steps { s = st.Apply(s) }). Tool's steps trim
// and upper-case; Env's expand environment variables, and Tool reaches
// none of it.
package pipeline

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the text.
type Args struct {
	Text string `json:"text"`
}

type step interface{ Apply(s string) string }

type trim struct{}

func (trim) Apply(s string) string { return strings.TrimSpace(s) }

type upper struct{}

func (upper) Apply(s string) string { return strings.ToUpper(s) }

type expand struct{}

func (expand) Apply(s string) string { return os.ExpandEnv(s) }

type pipeline struct{ steps []step }

func newPipeline(steps ...step) *pipeline { return &pipeline{steps: steps} }

func (p *pipeline) run(s string) string {
	for _, st := range p.steps {
		s = st.Apply(s)
	}
	return s
}

// Tool trims and upper-cases a text.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "pipeline", Description: "upper-case a text"}
}

// Execute converts args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return newPipeline(trim{}, upper{}).run(args.Text), nil
}

// Env expands the environment variables in a text.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "pipeline_env", Description: "expand variables", Capabilities: tool.Env}
}

// Execute expands args.Text.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return newPipeline(expand{}, trim{}).run(args.Text), nil
}
