// Package asmdata is a hostile probe of the capability audit: a function
// variable that no Go code assigns is filled by a DATA directive of the
// package's assembly with readEnv, which no Go code calls, so the call
// graph has no callee for the call through it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package asmdata

import (
	"context"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the audit must find: code it cannot see, which here reads
// the environment.
const Want = tool.Unsafe

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "asmdata"} }

// hidden is set by probe_amd64.s and probe_arm64.s to readEnv. A
// function without arguments or results is called alike under either
// of Go's calling conventions, so the assembly's ABI0 reference serves.
var hidden func()

// leaked is what readEnv read.
var leaked string

func readEnv() { leaked = os.Getenv("AUDIT_PROBE") }

// Execute calls what the assembly put in hidden.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	hidden()
	return leaked, nil
}
