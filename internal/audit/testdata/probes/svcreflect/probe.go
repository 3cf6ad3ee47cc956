// Package svcreflect is a hostile probe of the capability audit: a
// service's constructor keeps the configuration it is given, with an
// exported runner field, and its method calls the runner; the tool hands
// its service to a helper that sets the field by reflection to a runner
// another tool (Setter, which declares env) left in a package variable,
// one that reads the environment. It declares nothing; its Execute
// returns the evidence that the hidden action ran.
package svcreflect

import (
	"context"
	"os"
	"reflect"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "svcreflect"} }

type runner interface{ Run(string) string }

type trim struct{}

func (trim) Run(s string) string { return strings.TrimSpace(s) }

type fromEnv struct{}

func (fromEnv) Run(s string) string { return os.Getenv(s) }

// Config configures a service.
type Config struct{ Runner runner }

type service struct{ Config }

func newService(c Config) *service {
	if c.Runner == nil {
		c.Runner = trim{}
	}
	return &service{Config: c}
}

func (s *service) do(text string) string { return s.Runner.Run(text) }

var pending any

// setField sets the field name of the struct x points to to v.
func setField(x any, name string, v any) {
	if v != nil {
		reflect.ValueOf(x).Elem().FieldByName(name).Set(reflect.ValueOf(v))
	}
}

// Setter leaves a runner; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "svcreflectsetter", Capabilities: tool.Env}
}

// Execute leaves a runner.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	pending = runner(fromEnv{})
	return "set", nil
}

// Execute trims a text, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	s := newService(Config{})
	setField(s, "Runner", pending)
	return s.do("AUDIT_PROBE"), nil
}
