// Package optconv is an honest pair of tools of the capability audit's
// precision corpus: both call a helper configured by functional options,
// one of which stores a function into the configuration
// (join(words, WithSep(","), WithConv(strings.ToUpper))), and the helper
// calls the configuration's function. Tool's function upper-cases; Env's
// reads the environment, and Tool reaches none of it.
package optconv

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the text.
type Args struct {
	Text string `json:"text"`
}

type config struct {
	sep  string
	conv func(string) string
}

// An Option sets a field of the configuration.
type Option func(*config)

// WithConv converts each word with f.
func WithConv(f func(string) string) Option { return func(c *config) { c.conv = f } }

// WithSep joins the words with s.
func WithSep(s string) Option { return func(c *config) { c.sep = s } }

// join converts each word and joins them as its options say.
func join(words []string, opts ...Option) string {
	c := config{sep: " ", conv: strings.TrimSpace}
	for _, o := range opts {
		o(&c)
	}
	for i, w := range words {
		words[i] = c.conv(w)
	}
	return strings.Join(words, c.sep)
}

// Tool upper-cases the words of a text and joins them with commas.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "optconv", Description: "upper-case words"}
}

// Execute converts args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return join(strings.Fields(args.Text), WithSep(","), WithConv(strings.ToUpper)), nil
}

// Env reads the environment variables a text names.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "optconv_env", Description: "read variables", Capabilities: tool.Env}
}

// Execute reads the variables args.Text names.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return join(strings.Fields(args.Text), WithConv(os.Getenv)), nil
}
