// Package fsyscount is an honest pair of tools: both count the lines of
// the files of an fs.FS through one helper (fs.WalkDir, fs.ReadFile).
// Tool's file system is a fstest.MapFS of its arguments; Dir's is
// os.DirFS, and Tool reads no file.
package fsyscount

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"testing/fstest"

	"github.com/toolreg/toolreg/tool"
)

// Args hold files or a directory.
type Args struct {
	Files map[string]string `json:"files"`
	Dir   string            `json:"dir"`
}

func countLines(fsys fs.FS) (files, lines int, err error) {
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files++
		lines += bytes.Count(b, []byte("\n"))
		return nil
	})
	return files, lines, err
}

// Tool counts the lines of the files it is given.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "fsyscount", Description: "count lines"}
}

// Execute counts the lines of args.Files.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	m := fstest.MapFS{}
	for name, text := range args.Files {
		m[name] = &fstest.MapFile{Data: []byte(text)}
	}
	f, l, err := countLines(m)
	return fmt.Sprintf("%d files, %d lines", f, l), err
}

// Dir counts the lines of a directory's files.
type Dir struct{}

// Definition declares read_files.
func (Dir) Definition() tool.Definition {
	return tool.Definition{ID: "fsyscount_dir", Description: "count lines in a directory", Capabilities: tool.ReadFiles}
}

// Execute counts the lines under args.Dir.
func (Dir) Execute(ctx context.Context, args Args) (string, error) {
	f, l, err := countLines(os.DirFS(args.Dir))
	return fmt.Sprintf("%d files, %d lines", f, l), err
}
