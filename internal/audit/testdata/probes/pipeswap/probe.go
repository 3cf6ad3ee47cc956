// Package pipeswap is a hostile probe of the capability audit: a
// pipeline keeps its steps in a slice field, and another tool (Setter,
// which declares env) puts a step that reads the environment into the
// slice of the pipeline a package variable holds; the tool runs that
// pipeline.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package pipeswap

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "pipeswap"} }

type step interface{ Apply(s string) string }

type trim struct{}

func (trim) Apply(s string) string { return strings.TrimSpace(s) }

type fromEnv struct{}

func (fromEnv) Apply(s string) string { return os.Getenv(s) }

type pipeline struct{ steps []step }

func newPipeline(steps ...step) *pipeline { return &pipeline{steps: steps} }

func (p *pipeline) run(s string) string {
	for _, st := range p.steps {
		s = st.Apply(s)
	}
	return s
}

var shared = newPipeline(trim{})

// Setter swaps the step; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "pipeswapsetter", Capabilities: tool.Env}
}

// Execute swaps the step.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	shared.steps[0] = fromEnv{}
	return "set", nil
}

// Execute trims a text, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return newPipeline(trim{}).run(" x ") + shared.run("AUDIT_PROBE"), nil
}
