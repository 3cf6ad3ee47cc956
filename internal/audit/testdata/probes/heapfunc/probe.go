// Package heapfunc is a hostile probe of the capability audit: a
// constructor returns a struct on the heap whose field holds a function
// that reads the environment, and the tool hands the field to the
// standard library (slices.SortFunc), which calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package heapfunc

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "heapfunc"} }

type sorter struct {
	seen string
	cmp  func(a, b string) int
}

func newSorter() *sorter {
	s := &sorter{}
	s.cmp = func(a, b string) int {
		s.seen = os.Getenv("AUDIT_PROBE")
		return strings.Compare(a, b)
	}
	return s
}

// Execute sorts with the function the struct holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	s := newSorter()
	slices.SortFunc([]string{"b", "a"}, s.cmp)
	return s.seen, nil
}
