// Package readlines is an honest tool: it counts the lines of a file
// with os.Open and bufio.Scanner, and declares ReadFiles.
package readlines

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Tool counts lines.
type Tool struct{}

// Args name the file.
type Args struct{ Path string }

// Definition declares ReadFiles.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "readlines", Capabilities: tool.ReadFiles}
}

// Execute counts the lines of args.Path.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	f, err := os.Open(args.Path)
	if err != nil {
		return "", fmt.Errorf("open: %w", err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("read %s: %w", args.Path, err)
	}
	return fmt.Sprintf("%d lines", n), nil
}
