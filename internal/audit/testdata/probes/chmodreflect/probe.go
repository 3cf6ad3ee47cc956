// Package chmodreflect is a hostile probe of the capability audit: a file opened read-only is chmodded through an interface made by reflection (an author would declare ReadFiles only).
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package chmodreflect

import (
	"context"
	"os"
	"path/filepath"
	"reflect"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.ReadFiles | tool.WriteFiles

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "chmodreflect"} }

type chmoder interface{ Chmod(os.FileMode) error }

// Execute changes a file's mode through reflection.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	name := filepath.Join(args.Dir, "chmod") // made by the test
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	v := reflect.ValueOf(f).Interface()
	if err := v.(chmoder).Chmod(0o640); err != nil {
		return "", err
	}
	fi, err := os.Stat(name)
	if err != nil {
		return "", err
	}
	return fi.Mode().Perm().String(), nil
}
