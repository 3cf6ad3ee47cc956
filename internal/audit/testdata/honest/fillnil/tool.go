// Package fillnil is an honest tool: before it reads its options it
// makes their nil pointers, maps and slices by reflection, each of its
// field's own type (f.Set(reflect.New(f.Type().Elem())),
// reflect.MakeMap(f.Type()), reflect.Zero), as configuration loaders and
// decoders do.
package fillnil

import (
	"context"
	"fmt"
	"os"
	"reflect"

	"github.com/toolreg/toolreg/tool"
)

// Tool describes the options it would use.
type Tool struct{}

// Limits bound a run.
type Limits struct {
	Max int `json:"max"`
}

// Args are the options, any of them left out.
type Args struct {
	Name   string            `json:"name"`
	Limits *Limits           `json:"limits"`
	Labels map[string]string `json:"labels"`
	Tags   []string          `json:"tags"`
	Notes  chan string       `json:"-"`
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "fillnil"} }

// fill makes every nil pointer, map, slice and channel field of the
// struct ptr points to.
func fill(ptr any) {
	v := reflect.ValueOf(ptr).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() || !f.IsZero() {
			continue
		}
		switch f.Kind() {
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
			f.SetMapIndex(reflect.New(f.Type().Key()).Elem(), reflect.Zero(f.Type().Elem()))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 0, 1))
		case reflect.Chan:
			f.Set(reflect.MakeChan(f.Type(), 1))
			f.Send(reflect.Zero(f.Type().Elem()))
		default:
			f.Set(reflect.Zero(f.Type()))
		}
	}
}

// Execute fills the options and describes them.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	fill(&args)
	return fmt.Sprintf("%s max=%d labels=%d tags=%d notes=%d", args.Name, args.Limits.Max, len(args.Labels), len(args.Tags), len(args.Notes)), nil
}

// Read reads a file.
type Read struct{}

// Definition declares read_files.
func (Read) Definition() tool.Definition {
	return tool.Definition{ID: "fillnil_read", Capabilities: tool.ReadFiles}
}

// Execute reads the file args.Name names.
func (Read) Execute(ctx context.Context, args Args) (string, error) {
	b, err := os.ReadFile(args.Name)
	return string(b), err
}
