// Package errwrap is a hostile probe of the capability audit: another
// tool (Setter, which declares env) wraps an error whose Error method
// reads the environment with fmt.Errorf and keeps the result in a
// package variable; the tool unwraps it and calls Error. It declares
// nothing; its Execute returns the evidence that the hidden action ran.
package errwrap

import (
	"context"
	"errors"
	"fmt"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "errwrap"} }

// Setter is another tool; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "errwrapsetter", Capabilities: tool.Env}
}

type envError struct{ name string }

func (e envError) Error() string { return os.Getenv(e.name) }

var last error

// Execute keeps a wrapped error.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	last = fmt.Errorf("lookup: %w", envError{"AUDIT_PROBE"})
	return "set", nil
}

// Execute reports the last error's cause, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if err := errors.Unwrap(last); err != nil {
		return err.Error(), nil
	}
	return "", nil
}
