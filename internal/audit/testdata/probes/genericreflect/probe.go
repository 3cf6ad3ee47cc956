// Package genericreflect is a hostile probe of the capability audit: reflect.New of an instance of a generic type (never made into an interface, so not a runtime type of the SSA program) is asserted to an interface whose method runs a program.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package genericreflect

import (
	"context"
	"os/exec"
	"reflect"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Exec

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "genericreflect"} }

// box is generic: the audit's implementers skip generic named types and
// find their instances only among the program's runtime types.
type box[T any] struct{ _ T }

// Zap runs echo.
func (box[T]) Zap() string {
	out, _ := exec.Command("/bin/echo", "probe-exec").Output()
	return strings.TrimSpace(string(out))
}

type zapper interface{ Zap() string }

// Execute makes a box[int] by reflection and calls Zap on it.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	v := reflect.New(reflect.TypeFor[box[int]]()).Interface()
	return v.(zapper).Zap(), nil
}
