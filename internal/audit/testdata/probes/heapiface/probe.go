// Package heapiface is a hostile probe of the capability audit: a
// constructor returns a struct on the heap whose field holds a
// sort.Interface whose Less reads the environment, and the tool hands the
// field to the standard library (sort.Sort), which calls Less.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package heapiface

import (
	"context"
	"os"
	"sort"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "heapiface"} }

type names struct {
	list []string
	seen *string
}

func (n names) Len() int      { return len(n.list) }
func (n names) Swap(i, j int) { n.list[i], n.list[j] = n.list[j], n.list[i] }
func (n names) Less(i, j int) bool {
	*n.seen = os.Getenv("AUDIT_PROBE")
	return n.list[i] < n.list[j]
}

type holder struct{ data sort.Interface }

func newHolder(seen *string) *holder {
	return &holder{data: names{list: []string{"b", "a"}, seen: seen}}
}

// Execute sorts what the struct holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var seen string
	h := newHolder(&seen)
	sort.Sort(h.data)
	return seen, nil
}
