// Package newloader is an honest tool of the capability audit's precision
// corpus: a package initializer gives a constructor the function that
// reads files, which the constructor keeps in the struct it returns. The
// initializer only builds the loader: start-up reaches nothing, and the
// tool, which loads through it, reaches the reading.
package newloader

import (
	"context"
	"io"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Tool reads the start of a file.
type Tool struct{}

// Args name the file.
type Args struct {
	Path string `json:"path"`
}

// Definition declares the reading.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "newloader", Description: "read the start of a file", Capabilities: tool.ReadFiles}
}

type loader struct {
	open  func(string) (*os.File, error)
	limit int64
}

func newLoader(open func(string) (*os.File, error), limit int64) *loader {
	return &loader{open: open, limit: limit}
}

var files = newLoader(func(name string) (*os.File, error) { return os.Open(name) }, 4096)

// Execute reads the start of the file.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	f, err := files.open(args.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, files.limit))
	return string(b), err
}
