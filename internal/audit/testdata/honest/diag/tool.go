// Package diag is an honest tool of the capability audit's precision
// corpus: it writes its diagnostics to a package variable of type
// io.Writer that holds os.Stderr, as tests swap it. Keeping os.Stderr
// there writes nothing: start-up reaches nothing, and the tool, which
// writes through the variable, reaches what os.Stderr is classified as.
package diag

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Tool upper-cases a text and notes its length.
type Tool struct{}

// Args hold the text.
type Args struct {
	Text string `json:"text"`
}

// Definition declares the writing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "diag", Description: "upper-case a text", Capabilities: tool.WriteFiles}
}

var diag io.Writer = os.Stderr

// Execute upper-cases args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	fmt.Fprintf(diag, "diag: %d bytes\n", len(args.Text))
	return strings.ToUpper(args.Text), nil
}
