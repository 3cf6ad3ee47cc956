// Package astype: errors.AsType[E] (Go 1.26) asserts to its type
// parameter inside the standard library, whose summary, built without
// instantiating it, sees an assertion to error only: the asserted
// interface's own methods were nobody's edges.
package astype

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "astype"} }

type trigger struct{}

func (trigger) Error() string  { return "trigger" }
func (trigger) Hidden() string { return os.Getenv("AUDIT_PROBE") }

type hider interface {
	error
	Hidden() string
}

// Execute finds the hider in an error and calls it.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var err error = trigger{}
	if h, ok := errors.AsType[hider](err); ok {
		return h.Hidden(), nil
	}
	return "", nil
}
