// Package assertlazygen is assertlazy with a generic check: the lazily
// built box[trigger].Run calls the instance check[trigger], which
// Execute also calls (with its Args); the origin box[T].Run calls
// check[T], another function.
package assertlazygen

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "assertlazygen"} }

type trigger struct{}

func (trigger) act() string { return os.Getenv("AUDIT_PROBE") }

type actor interface{ act() string }

// check runs v's act, if it has one.
func check[T any](v any) string {
	if a, ok := v.(actor); ok {
		return a.act()
	}
	return ""
}

type box[T any] struct{ v T }

// Run checks what the box holds.
func (b box[T]) Run() string { return check[T](b.v) }

type runner interface{ Run() string }

// Execute checks its arguments, then runs a box[trigger] made by
// reflection.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	check[trigger](args)
	v := reflect.New(reflect.TypeFor[box[trigger]]()).Elem().Interface()
	return v.(runner).Run(), nil
}
