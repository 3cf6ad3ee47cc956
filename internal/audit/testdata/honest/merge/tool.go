// Package merge is an honest tool: it merges the options the model gave
// over its defaults field by field by reflection (reflect.Value.Set of a
// field of one struct into the same field of another), as configuration
// libraries do.
package merge

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Tool shows the options it would use.
type Tool struct{}

// Options are what the model may set.
type Options struct {
	Name    string        `json:"name"`
	Retries int           `json:"retries"`
	Timeout time.Duration `json:"timeout"`
	Labels  []string      `json:"labels"`
	Limits  map[string]int
}

// Args hold the options.
type Args struct {
	Options Options `json:"options"`
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "merge"} }

var defaults = Options{Name: "default", Retries: 3, Timeout: 5 * time.Second}

// over sets each zero field of dst to src's.
func over(dst, src *Options) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := range d.NumField() {
		if d.Field(i).IsZero() {
			d.Field(i).Set(s.Field(i))
		}
	}
}

// Execute merges and shows the result.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	opts := args.Options
	def := defaults
	over(&opts, &def)
	out, err := json.Marshal(opts)
	return string(out), err
}
