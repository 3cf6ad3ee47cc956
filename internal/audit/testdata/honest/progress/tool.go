// Package progress is an honest pair of tools: both copy through a
// copier a constructor makes with a progress callback in a field. Tool's
// callback counts the chunks; Verbose's prints them to the agent's
// standard error, and Tool writes none.
package progress

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text.
type Args struct {
	Text string `json:"text"`
}

type copier struct {
	chunk      int
	onProgress func(done int64)
}

func newCopier(chunk int, onProgress func(int64)) *copier {
	if onProgress == nil {
		onProgress = func(int64) {}
	}
	return &copier{chunk: chunk, onProgress: onProgress}
}

func (c *copier) copy(dst io.Writer, src io.Reader) (int64, error) {
	buf := make([]byte, c.chunk)
	var done int64
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return done, werr
			}
			done += int64(n)
			c.onProgress(done)
		}
		if err == io.EOF {
			return done, nil
		}
		if err != nil {
			return done, err
		}
	}
}

// Tool copies a text in chunks and counts them.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "progress", Description: "copy in chunks"}
}

// Execute copies args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	chunks := 0
	var out strings.Builder
	n, err := newCopier(4, func(int64) { chunks++ }).copy(&out, strings.NewReader(args.Text))
	return fmt.Sprintf("%d bytes in %d chunks: %s", n, chunks, out.String()), err
}

// Verbose copies a text and reports progress on standard error.
type Verbose struct{}

// Definition declares write_files.
func (Verbose) Definition() tool.Definition {
	return tool.Definition{ID: "progress_verbose", Description: "copy verbosely", Capabilities: tool.WriteFiles}
}

// Execute copies args.Text.
func (Verbose) Execute(ctx context.Context, args Args) (string, error) {
	var out strings.Builder
	_, err := newCopier(4, func(d int64) { fmt.Fprintf(os.Stderr, "%d bytes\n", d) }).copy(&out, strings.NewReader(args.Text))
	return out.String(), err
}
