// Package visitor is an honest pair of tools of the capability audit's
// precision corpus: both fill a local struct's function field (a method
// value, a closure) and call it through a copy. Tool counts words with a
// counter's method; Env's function reads the environment, and Tool
// reaches none of it.
package visitor

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the text.
type Args struct {
	Text string `json:"text"`
}

type counter struct{ total int }

func (c *counter) add(n int) { c.total += n }

type visitor struct{ visit func(int) }

// Tool counts the letters of a text's words.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "visitor", Description: "count letters"}
}

// Execute counts the letters of args.Text's words.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var c counter
	v := visitor{visit: c.add}
	for _, w := range strings.Fields(args.Text) {
		v.visit(len(w))
	}
	return fmt.Sprint(c.total), nil
}

// Env counts the letters of the environment variables a text names.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "visitor_env", Description: "count letters", Capabilities: tool.Env}
}

// Execute counts.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	total := 0
	v := visitor{visit: func(n int) { total += len(os.Getenv(fmt.Sprint(n))) }}
	for _, w := range strings.Fields(args.Text) {
		v.visit(len(w))
	}
	return fmt.Sprint(total), nil
}
