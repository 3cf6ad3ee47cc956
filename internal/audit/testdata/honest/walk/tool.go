// Package walk is an honest tool: it walks a tree with filepath.WalkDir,
// reads each file with os.ReadFile, and declares ReadFiles.
package walk

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Tool finds files that contain a word.
type Tool struct{}

// Args name the directory and the word.
type Args struct{ Dir, Word string }

// Definition declares ReadFiles.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "walk", Capabilities: tool.ReadFiles}
}

// Execute lists the files under args.Dir that contain args.Word.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var hits []string
	err := filepath.WalkDir(args.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), args.Word) {
			hits = append(hits, filepath.Base(path))
		}
		return ctx.Err()
	})
	return strings.Join(hits, "\n"), err
}
