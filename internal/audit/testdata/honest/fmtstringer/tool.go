// Package fmtstringer is an honest pair of tools: both format a value of
// their own with fmt, whose String method fmt calls. Tool's point only
// formats its fields; Home's path expands ~ with the user's home
// directory, and Tool reaches none of it.
package fmtstringer

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a point and a path.
type Args struct {
	X, Y int
	Path string
}

type point struct{ X, Y int }

func (p point) String() string { return fmt.Sprintf("(%d, %d)", p.X, p.Y) }

type homePath string

func (p homePath) String() string {
	s := string(p)
	if strings.HasPrefix(s, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + s[1:]
		}
	}
	return s
}

// Tool formats a point.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "fmtstringer", Description: "format a point"}
}

// Execute formats the point with %v.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return fmt.Sprintf("point %v", point{args.X, args.Y}), nil
}

// Home expands a path.
type Home struct{}

// Definition declares env.
func (Home) Definition() tool.Definition {
	return tool.Definition{ID: "fmtstringer_home", Description: "expand ~", Capabilities: tool.Env}
}

// Execute expands ~ in args.Path.
func (Home) Execute(ctx context.Context, args Args) (string, error) {
	return fmt.Sprint(homePath(args.Path)), nil
}
