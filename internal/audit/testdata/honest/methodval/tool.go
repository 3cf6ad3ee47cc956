// Package methodval is an honest pair of tools: both pass a method value
// as the callback of a helper that calls it for each line. Tool's counts
// words; Env's expands environment variables, and Tool reaches none of it.
package methodval

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text.
type Args struct {
	Text string `json:"text"`
}

func eachLine(text string, fn func(string) error) error {
	for line := range strings.Lines(text) {
		if err := fn(strings.TrimSuffix(line, "\n")); err != nil {
			return err
		}
	}
	return nil
}

type counter struct{ lines, words int }

func (c *counter) add(line string) error {
	c.lines++
	c.words += len(strings.Fields(line))
	return nil
}

type expander struct {
	out     strings.Builder
	missing []string
}

func (e *expander) add(line string) error {
	e.out.WriteString(os.Expand(line, func(k string) string {
		v, ok := os.LookupEnv(k)
		if !ok {
			e.missing = append(e.missing, k)
		}
		return v
	}))
	e.out.WriteByte('\n')
	return nil
}

// Tool counts lines and words.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "methodval", Description: "count words"}
}

// Execute counts args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var c counter
	err := eachLine(args.Text, c.add)
	return fmt.Sprintf("%d lines, %d words", c.lines, c.words), err
}

// Env expands variables line by line.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "methodval_env", Description: "expand variables", Capabilities: tool.Env}
}

// Execute expands args.Text.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	e := &expander{}
	add := e.add
	if err := eachLine(args.Text, add); err != nil {
		return "", err
	}
	return e.out.String(), nil
}
