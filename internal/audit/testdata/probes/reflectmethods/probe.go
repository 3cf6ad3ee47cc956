// Package reflectmethods is a hostile probe of the capability audit: Go 1.26\'s reflect.Value.Methods yields a method that is called.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package reflectmethods

import (
	"context"
	"os"
	"reflect"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Unsafe

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "reflectmethods"} }

type trigger struct{}

// Act reads the environment.
func (trigger) Act() string { return os.Getenv("AUDIT_PROBE") }

// Execute calls every method by reflection.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	out := ""
	for _, m := range reflect.ValueOf(trigger{}).Methods() {
		out += m.Call(nil)[0].String()
	}
	return out, nil
}
