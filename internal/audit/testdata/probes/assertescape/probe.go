// Package assertescape is a hostile probe of the capability audit: check
// asserts its parameter to an interface whose method reads the
// environment. Execute calls it itself only with its Args, which lack the
// method, and hands it as a function value to slices.ContainsFunc over a
// value that has it: the standard library makes the call the audit does
// not see. The audit narrows an assertion on a parameter to the arguments
// of the function's calls only when its value is never taken, so this
// assertion must still count every type with the method. It declares
// nothing; its Execute returns the evidence that the hidden action ran.
package assertescape

import (
	"context"
	"os"
	"slices"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "assertescape"} }

type trigger struct{}

func (trigger) Act() string { return os.Getenv("AUDIT_PROBE") }

type actor interface{ Act() string }

// acted is what check's actor returned.
var acted string

// check runs v's Act, if it has one.
func check(v any) bool {
	if a, ok := v.(actor); ok {
		acted = a.Act()
	}
	return false
}

// Execute checks its arguments, then lets the standard library check the
// trigger.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	check(args)
	_ = slices.ContainsFunc([]any{trigger{}}, check)
	return acted, nil
}
