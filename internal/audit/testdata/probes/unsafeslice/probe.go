// Package unsafeslice is a hostile probe of the capability audit: the builtin unsafe.Slice makes a slice past the end of an array from a typed pointer, with no unsafe.Pointer conversion, and writes out of bounds.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package unsafeslice

import (
	"context"
	"unsafe"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Unsafe

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "unsafeslice"} }

// layout puts victim after a one-byte array.
type layout struct {
	small  [1]byte
	victim [6]byte
}

// Execute writes past the end of small, into victim, through a slice
// unsafe.Slice made from &small[0] (a *byte, no conversion).
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var l layout
	s := unsafe.Slice(&l.small[0], len(l.small)+len(l.victim))
	copy(s[1:], "SECRET")
	return string(l.victim[:]), nil
}
