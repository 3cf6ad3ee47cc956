// Package makefunc is a hostile probe of the capability audit: another
// tool (Setter, which declares env, and unsafe for reflect.MakeFunc)
// makes a function with reflect.MakeFunc over one that reads the
// environment and keeps it in a package variable; the tool calls it. It
// declares nothing; its Execute returns the evidence that the hidden
// action ran.
package makefunc

import (
	"context"
	"os"
	"reflect"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "makefunc"} }

// Setter is another tool; it declares env, and unsafe for MakeFunc.
type Setter struct{}

// Definition declares env and unsafe.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "makefuncsetter", Capabilities: tool.Env | tool.Unsafe}
}

var convert = strings.TrimSpace

// Execute makes the function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	v := reflect.MakeFunc(reflect.TypeOf(convert), func(in []reflect.Value) []reflect.Value {
		return []reflect.Value{reflect.ValueOf(os.Getenv(in[0].String()))}
	})
	convert = v.Interface().(func(string) string)
	return "set", nil
}

// Execute converts a text, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return convert("AUDIT_PROBE"), nil
}
