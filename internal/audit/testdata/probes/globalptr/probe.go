// Package globalptr is a hostile probe of the capability audit: a
// package variable holds a struct with a function that reads the
// environment, another holds a pointer to the first, and the tool hands
// the function, read through the pointer, to the standard library
// (slices.SortFunc), which calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package globalptr

import (
	"context"
	"os"
	"slices"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "globalptr"} }

var seen string

type options struct{ cmp func(a, b string) int }

var defaults = options{cmp: func(a, b string) int {
	seen = os.Getenv("AUDIT_PROBE")
	return strings.Compare(a, b)
}}

var current = &defaults

// Execute sorts with the function the pointed-to variable holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	slices.SortFunc([]string{"b", "a"}, current.cmp)
	return seen, nil
}
