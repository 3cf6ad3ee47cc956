// Package functable is an honest tool of the capability audit's
// precision corpus: its operations are a table of functions in a package
// variable, and its file access goes through a variable tests can
// replace and a map of loaders an init function fills, as Go code often
// does. Its start-up code only fills them: it reaches nothing, and the
// tool reaches what its operations do.
package functable

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Tool applies an operation to a file's text.
type Tool struct{}

// Args name the operation and the file.
type Args struct {
	Op   string `json:"op"`
	Path string `json:"path"`
}

// Definition declares the reading.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "functable", Description: "apply an operation to a file", Capabilities: tool.ReadFiles}
}

// openFile opens the file; tests replace it.
var openFile = os.Open

type op struct {
	help string
	run  func(string) string
}

var ops = map[string]op{
	"upper": {"upper-case the text", strings.ToUpper},
	"lines": {"count the lines", func(s string) string { return fmt.Sprint(strings.Count(s, "\n")) }},
}

var order = []func(string) string{strings.TrimSpace, strings.ToLower}

// loaders read a named source; init functions register them.
var loaders = map[string]func(string) ([]byte, error){}

func init() { loaders["file"] = os.ReadFile }

// Execute reads the file and applies the operation.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	o, ok := ops[args.Op]
	if !ok {
		return "", fmt.Errorf("unknown operation %q; known: %s", args.Op, strings.Join(slices.Sorted(func(yield func(string) bool) {
			for k := range ops {
				if !yield(k) {
					return
				}
			}
		}), ", "))
	}
	f, err := openFile(args.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return "", err
	}
	if len(b) == 0 {
		if b, err = loaders["file"](args.Path + ".default"); err != nil {
			return "", err
		}
	}
	s := string(b)
	for _, norm := range order {
		s = norm(s)
	}
	return o.run(s), nil
}
