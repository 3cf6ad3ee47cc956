// Package options is an honest pair of tools of the capability audit's
// precision corpus: both call a helper configured by functional options
// (pad(s, WithWidth(20), WithFill("."))), which calls each option it is
// given. Tool's options only set fields; Env's reads the environment, and
// Tool reaches none of it.
package options

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
	width int
	fill  string
}

// An Option sets a field of the configuration.
type Option func(*config)

// WithWidth pads to n bytes.
func WithWidth(n int) Option { return func(c *config) { c.width = n } }

// WithFill pads with s.
func WithFill(s string) Option { return func(c *config) { c.fill = s } }

// WithFillFrom pads with the value of the environment variable name.
func WithFillFrom(name string) Option { return func(c *config) { c.fill = os.Getenv(name) } }

// pad pads s as its options say.
func pad(s string, opts ...Option) string {
	c := config{width: 10, fill: " "}
	for _, o := range opts {
		o(&c)
	}
	if n := c.width - len(s); n > 0 && c.fill != "" {
		s += strings.Repeat(c.fill, n)[:n]
	}
	return s
}

// Tool pads a text with dots.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "options", Description: "pad a text"}
}

// Execute pads args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return pad(args.Text, WithWidth(20), WithFill(".")), nil
}

// Env pads a text with the value of $PAD.
type Env struct{}

// Definition declares env.
func (Env) Definition() tool.Definition {
	return tool.Definition{ID: "options_env", Description: "pad a text", Capabilities: tool.Env}
}

// Execute pads args.Text.
func (Env) Execute(ctx context.Context, args Args) (string, error) {
	return pad(args.Text, WithFillFrom("PAD")) + pad(args.Text), nil
}
