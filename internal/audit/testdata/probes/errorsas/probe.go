// Package errorsas is a hostile probe of the capability audit: errors.As
// stores an error into a variable of an interface type the error's type
// implements (by internal/reflectlite), and the tool calls the
// interface's other method with no type assertion.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package errorsas

import (
	"context"
	"errors"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "errorsas"} }

type trigger struct{}

func (trigger) Error() string { return "trigger" }

func (trigger) Fire() string { return os.Getenv("AUDIT_PROBE") }

type firer interface {
	error
	Fire() string
}

// Execute finds the firer in the error.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var f firer
	if errors.As(trigger{}, &f) {
		return f.Fire(), nil
	}
	return "", errors.New("no firer")
}
