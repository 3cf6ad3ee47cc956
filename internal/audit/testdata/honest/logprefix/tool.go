// Package logprefix is an honest pair of the capability audit: Tool sends
// the standard logger's output through a writer of its own that prefixes
// each line, into a buffer, logs, and reports what was logged; Save
// writes a file through another writer of the package. The writer kept in
// log's default Logger writes to memory only: the tools that log (net/http
// does) are not charged with Save's.
package logprefix

import (
	"bytes"
	"context"
	"io"
	"log"
	"os"
	"path/filepath"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Args are unused.
type Args struct{ Dir string }

// prefixer writes each line to w with a prefix.
type prefixer struct {
	w      io.Writer
	prefix []byte
}

func (p *prefixer) Write(b []byte) (int, error) {
	if _, err := p.w.Write(append(append([]byte(nil), p.prefix...), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

var (
	mu  sync.Mutex
	buf bytes.Buffer
)

// Tool logs through the prefixer.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "logprefix"} }

// Execute logs a line and returns the log.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	log.SetOutput(&prefixer{w: &buf, prefix: []byte("logprefix: ")})
	log.SetFlags(0)
	log.Print("hello")
	return buf.String(), nil
}

// fileWriter appends what it is given to a file.
type fileWriter struct{ path string }

func (f fileWriter) Write(b []byte) (int, error) {
	fh, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	return fh.Write(b)
}

// Save writes a line to a file of the directory through a fileWriter.
type Save struct{}

// Definition declares write_files.
func (Save) Definition() tool.Definition {
	return tool.Definition{ID: "logprefixsave", Capabilities: tool.WriteFiles}
}

// Execute writes the line.
func (Save) Execute(ctx context.Context, args Args) (string, error) {
	var w io.Writer = fileWriter{path: filepath.Join(args.Dir, "saved.txt")}
	_, err := io.WriteString(w, "saved\n")
	return "saved", err
}
