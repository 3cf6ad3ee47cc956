// Package errgroup is an honest pair of tools of the capability audit's
// precision corpus: both call a helper that runs the function it is given
// on goroutines of a golang.org/x/sync/errgroup Group, through closures
// that capture it. Tool passes strings.ToUpper, Env os.Getenv; Tool
// reaches none of Env's.
package errgroup

import (
	"context"
	"strings"

	"os"

	"golang.org/x/sync/errgroup"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the words.
type Args struct {
	Words []string `json:"words"`
}

// each applies f to every word, concurrently.
func each(ctx context.Context, words []string, f func(string) string) ([]string, error) {
	out := make([]string, len(words))
	g, ctx := errgroup.WithContext(ctx)
	for i, w := range words {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			out[i] = f(w)
			return nil
		})
	}
	return out, g.Wait()
}

// Tool upper-cases words.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "errgroup", Description: "upper-case words"}
}

// Execute upper-cases args.Words.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	out, err := each(ctx, args.Words, strings.ToUpper)
	return strings.Join(out, " "), err
}

// Env reads the variables the words name.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "errgroup_env", Description: "read variables", Capabilities: tool.Env}
}

// Execute reads the variables args.Words name.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	out, err := each(ctx, args.Words, os.Getenv)
	return strings.Join(out, " "), err
}
