// Package assertlazy is a hostile probe of the capability audit: check
// asserts its parameter to an interface whose method reads the
// environment. Execute calls check only with its Args; the other call,
// with a trigger, is in the method of box[trigger], an instance of a
// generic type that is only a type argument (reflect.TypeFor), whose
// body the SSA program builds only when the audit asks for the method
// (MethodValue), after the audit's functions (g.funcs) were listed: the
// call is in no function callSites indexes.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package assertlazy

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "assertlazy"} }

type trigger struct{}

func (trigger) act() string { return os.Getenv("AUDIT_PROBE") }

type actor interface{ act() string }

// check runs v's act, if it has one.
func check(v any) string {
	if a, ok := v.(actor); ok {
		return a.act()
	}
	return ""
}

type box[T any] struct{ v T }

// Run checks what the box holds.
func (b box[T]) Run() string { return check(b.v) }

type runner interface{ Run() string }

// Execute checks its arguments, then runs a box[trigger] made by
// reflection.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	check(args)
	v := reflect.New(reflect.TypeFor[box[trigger]]()).Elem().Interface()
	return v.(runner).Run(), nil
}
