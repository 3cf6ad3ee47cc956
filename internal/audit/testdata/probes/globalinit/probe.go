// Package globalinit is a hostile probe of the capability audit: an
// init function puts a function that reads the environment into a map a
// package variable holds, and the tool hands it to the standard library
// (slices.SortFunc), which calls it. The function was charged to the
// init function (a warning about start-up code, which only stored it),
// not to the tool, which reached nothing.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package globalinit

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "globalinit"} }

var seen string

var orders = map[string]func(a, b string) int{}

func init() {
	orders["env"] = func(a, b string) int {
		seen = os.Getenv("AUDIT_PROBE")
		return strings.Compare(a, b)
	}
}

// Execute sorts with the function the map holds.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	slices.SortFunc([]string{"b", "a"}, orders["env"])
	return seen, nil
}
