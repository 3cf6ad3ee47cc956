// Package once is an honest tool: it builds a table once with
// sync.Once, and declares nothing.
package once

import (
	"context"
	"strconv"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Tool looks up squares.
type Tool struct{}

// Args give the number.
type Args struct{ N int }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "once"} }

var (
	tableOnce sync.Once
	table     []int
)

// Execute returns the square of args.N.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	tableOnce.Do(func() {
		for i := range 100 {
			table = append(table, i*i)
		}
	})
	if args.N < 0 || args.N >= len(table) {
		return "", strconv.ErrRange
	}
	return strconv.Itoa(table[args.N]), nil
}
