// Package defaults is an honest tool: it fills the zero fields of its
// options from their `default` tags by reflection (reflect.Value.Set
// among the setters), as configuration loaders do.
package defaults

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Tool describes the options it would use.
type Tool struct{}

// Args are the options, any of them zero.
type Args struct {
	Name    string        `json:"name" default:"world"`
	Repeat  int           `json:"repeat" default:"2"`
	Timeout time.Duration `json:"timeout" default:"3s"`
	Tags    []string      `json:"tags"`
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "defaults"} }

func fill(ptr any) error {
	v := reflect.ValueOf(ptr).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f, def := v.Field(i), t.Field(i).Tag.Get("default")
		if def == "" || !f.IsZero() {
			continue
		}
		switch {
		case f.Type() == reflect.TypeFor[time.Duration]():
			d, err := time.ParseDuration(def)
			if err != nil {
				return err
			}
			f.Set(reflect.ValueOf(d))
		case f.Kind() == reflect.String:
			f.SetString(def)
		case f.Kind() == reflect.Int:
			n, err := strconv.Atoi(def)
			if err != nil {
				return err
			}
			f.SetInt(int64(n))
		}
	}
	return nil
}

// Execute fills the defaults and describes the result.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if err := fill(&args); err != nil {
		return "", err
	}
	if args.Tags == nil {
		args.Tags = reflect.MakeSlice(reflect.TypeFor[[]string](), 0, 1).Interface().([]string)
	}
	return fmt.Sprintf("%s x%d within %s %v", args.Name, args.Repeat, args.Timeout, args.Tags), nil
}
