// Package mmapcount is an honest tool of the capability audit's
// precision corpus: it maps a file it opened read-only into memory and
// counts its lines. A read-only mapping of its own file reads files, and
// nothing more.
package mmapcount

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"syscall"

	"github.com/toolreg/toolreg/tool"
)

// Tool counts a file's lines.
type Tool struct{}

// Args name the file.
type Args struct {
	Path string `json:"path"`
}

// Definition declares the reading.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "mmapcount", Description: "count a file's lines", Capabilities: tool.ReadFiles}
}

// Execute maps the file and counts its lines.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	f, err := os.Open(args.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if fi.Size() == 0 {
		return "0", nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return "", fmt.Errorf("map %s: %w", args.Path, err)
	}
	defer syscall.Munmap(b)
	return fmt.Sprint(bytes.Count(b, []byte("\n"))), nil
}
