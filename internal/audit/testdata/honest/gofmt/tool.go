// Package gofmt is an honest tool of the capability audit's precision
// corpus: it formats Go source the model sends with go/format.Source and
// reports the declarations go/parser finds, both from the text in
// memory, and its debugging output is under a constant false condition.
// go/parser reads a file only when it is given no text, prints a trace
// only in parser.Trace mode, and go/printer writes to the standard error
// only as it panics: the tool declares nothing.
package gofmt

import (
	"context"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Tool formats Go source.
type Tool struct{}

// Args hold the source.
type Args struct {
	Source string `json:"source"`
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "gofmt", Description: "format Go source"}
}

const debug = false

// Execute formats args.Source and counts its declarations.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	out, err := format.Source([]byte(args.Source))
	if err != nil {
		return "", err
	}
	f, err := parser.ParseFile(token.NewFileSet(), "input.go", args.Source, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	if debug {
		fmt.Fprintf(os.Stderr, "gofmt: %d declarations\n", len(f.Decls))
	}
	return fmt.Sprintf("%s\n// %d declarations\n", out, len(f.Decls)), nil
}
