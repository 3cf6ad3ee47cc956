// Package filestats is an honest tool: it walks a directory with a
// closure, reads each file, and reports the largest ones, with a generic
// helper, sort.Slice, strings.Builder and errors.As to *fs.PathError.
package filestats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Tool counts the lines of the files under a directory.
type Tool struct{}

// Args name the directory.
type Args struct {
	Dir string `json:"dir"`
	Top int    `json:"top"`
}

// Definition declares ReadFiles.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "filestats", Capabilities: tool.ReadFiles}
}

type stat struct {
	path  string
	lines int
}

func (s stat) String() string { return fmt.Sprintf("%6d %s", s.lines, s.path) }

func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, 0, len(in))
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}

// Execute lists the files with the most lines.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var stats []stat
	skipped := 0
	err := filepath.WalkDir(args.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				skipped++
				return nil
			}
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			skipped++
			return nil
		}
		stats = append(stats, stat{path: path, lines: bytes.Count(data, []byte("\n"))})
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(stats, func(i, j int) bool { return stats[i].lines > stats[j].lines })
	if args.Top > 0 && len(stats) > args.Top {
		stats = stats[:args.Top]
	}
	var b strings.Builder
	for _, line := range mapSlice(stats, stat.String) {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d skipped\n", skipped)
	return b.String(), nil
}
