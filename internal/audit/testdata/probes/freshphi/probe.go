// Package freshphi is a hostile probe of the capability audit: reflection
// stores into an interface variable a zero value made of a type that is
// the variable's own on one path and another type's on the other
// (reflect.Zero(t), t a φ of v.Type() and reflect.TypeOf(trigger{})), and
// the tool calls its method through the interface: only a value made of
// the variable's own type adds no type to it. It declares nothing; its
// Execute returns the evidence that the hidden action ran.
package freshphi

import (
	"context"
	"os"
	"reflect"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "freshphi"} }

type trigger struct{}

func (trigger) Fire() string { return os.Getenv("AUDIT_PROBE") }

type firer interface{ Fire() string }

// Execute sets the interface by reflection and calls it.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var f firer
	v := reflect.ValueOf(&f).Elem()
	t := v.Type()
	if args.Dir != "" {
		t = reflect.TypeOf(trigger{})
	}
	v.Set(reflect.Zero(t))
	return f.Fire(), nil
}
