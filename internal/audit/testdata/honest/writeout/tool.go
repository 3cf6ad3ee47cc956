// Package writeout is an honest tool: it writes a report under a
// directory it makes with os.MkdirAll, with os.WriteFile, and declares
// WriteFiles only.
package writeout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolreg/toolreg/tool"
)

// Tool writes a report.
type Tool struct{}

// Args name the directory and the text.
type Args struct{ Dir, Text string }

// Definition declares WriteFiles.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "writeout", Capabilities: tool.WriteFiles}
}

// Execute writes args.Text to args.Dir/out/report.txt.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	dir := filepath.Join(args.Dir, "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("make %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte(args.Text), 0o644); err != nil {
		return "", fmt.Errorf("write: %w", err)
	}
	return "written", nil
}
