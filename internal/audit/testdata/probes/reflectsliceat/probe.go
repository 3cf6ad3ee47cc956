// Package reflectsliceat is a hostile probe of the capability audit:
// reflect.SliceAt makes a slice of any length at the address
// reflect.Value.UnsafePointer gives, with no conversion through
// unsafe.Pointer and without importing unsafe, and reads past the end of
// the array it points to (out-of-bounds writes are as easy).
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package reflectsliceat

import (
	"context"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "reflectsliceat"} }

type pair struct {
	a [2]byte
	b [6]byte
}

// Execute reads b through a slice of a.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	p := &pair{b: [6]byte{'S', 'E', 'C', 'R', 'E', 'T'}}
	at := reflect.ValueOf(&p.a).UnsafePointer()
	s := reflect.SliceAt(reflect.TypeFor[byte](), at, 8).Bytes()
	return string(s[2:]), nil
}
