// Package readall is an honest tool: it reads a file with os.Open and
// io.ReadAll, and declares ReadFiles.
package readall

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Tool reads a file.
type Tool struct{}

// Args name the file.
type Args struct{ Path string }

// Definition declares ReadFiles.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "readall", Capabilities: tool.ReadFiles}
}

// Execute returns the file's content.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	f, err := os.Open(args.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	return string(b), nil
}
