// Package globalfunc is a hostile probe of the capability audit: a
// package variable holds a function that reads the environment, and the
// tool hands it to the standard library (slices.SortFunc), which calls
// it. The value was charged to the start-up code that made it (a
// warning about start-up code, which only stored it), not to the tool,
// which reached nothing.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package globalfunc

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "globalfunc"} }

var seen string

// byName is kept in a package variable only.
var byName = func(a, b string) int {
	seen = os.Getenv("AUDIT_PROBE")
	return strings.Compare(a, b)
}

// Execute sorts with the function the variable holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	slices.SortFunc([]string{"b", "a"}, byName)
	return seen, nil
}
