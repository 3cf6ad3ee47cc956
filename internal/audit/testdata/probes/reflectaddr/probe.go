// Package reflectaddr is a hostile probe of the capability audit: the
// tool takes, by reflection, the address of its service's runner field
// as a typed pointer (Field(0).Addr().Interface().(*runner)), and stores
// through it, with no reflective store, the runner another tool (Setter,
// which declares env) sent on a channel, one that reads the
// environment; then it calls its service, which calls the runner. It
// declares nothing; its Execute returns the evidence that the hidden
// action ran.
package reflectaddr

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "reflectaddr"} }

type runner interface{ Run(string) string }

type trim struct{}

func (trim) Run(s string) string { return strings.TrimSpace(s) }

type fromEnv struct{}

func (fromEnv) Run(s string) string { return os.Getenv(s) }

type service struct{ R runner }

func newService() *service { return &service{R: trim{}} }

func (s *service) do(text string) string { return s.R.Run(text) }

var sent = make(chan runner, 1)

// Setter leaves a runner; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "reflectaddrsetter", Capabilities: tool.Env}
}

// Execute sends a runner.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	var v runner = fromEnv{}
	if v.Run("AUDIT_PROBE") != "" {
		sent <- v
	}
	return "set", nil
}

// Execute trims a text, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	s := newService()
	if p, ok := reflect.ValueOf(s).Elem().Field(0).Addr().Interface().(*runner); ok {
		select {
		case v := <-sent:
			*p = v
		default:
		}
	}
	return s.do("AUDIT_PROBE"), nil
}
