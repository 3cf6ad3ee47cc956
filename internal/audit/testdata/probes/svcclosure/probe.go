// Package svcclosure is a hostile probe of the capability audit: the tool
// makes a service with a constructor that applies functional options to
// it, called from a closure the tool calls where it makes it, keeps the
// service's pointer in a package variable, and a helper
// stores through that variable the runner of a service another tool
// (Setter, which declares env) set up to read the environment; the tool
// then calls its service, which calls its runner. It declares nothing;
// its Execute returns the evidence that the hidden action ran.
package svcclosure

import (
	"context"
	"os"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "svcclosure"} }

type runner interface{ Run(string) string }

type trim struct{}

func (trim) Run(s string) string { return strings.TrimSpace(s) }

type fromEnv struct{}

func (fromEnv) Run(s string) string { return os.Getenv(s) }

type service struct{ r runner }

// An Option configures a service.
type Option func(*service)

// WithRunner makes the service run r.
func WithRunner(r runner) Option { return func(s *service) { s.r = r } }

func newService(opts ...Option) *service {
	s := &service{r: trim{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *service) do(text string) string { return s.r.Run(text) }

var (
	box  = &service{r: trim{}}
	kept *service
)

// adopt gives the kept service the box's runner.
func adopt() { kept.r = box.r }

// Setter sets the box's runner; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "svcclosuresetter", Capabilities: tool.Env}
}

// Execute sets the box's runner.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	box.r = fromEnv{}
	return "set", nil
}

// Execute trims a text, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	opt := WithRunner(trim{})
	s := func() *service { return newService(opt) }()
	kept = s
	adopt()
	return s.do("AUDIT_PROBE"), nil
}
