// Package pkgvarwhole is a hostile probe of the capability audit: a service
// start-up code makes and keeps in a package variable (var svc =
// newService(WithPrefix(">"))), whose runner an option may set, is
// overwritten whole, after start, by another tool (Setter, which declares
// env) with one whose runner reads the environment (*svc = service{r:
// fromEnv{}}); the tool calls the service's method, which calls the runner.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package pkgvarwhole

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "pkgvarwhole"} }

type runner interface{ Run(string) string }

type trim struct{}

func (trim) Run(s string) string { return strings.TrimSpace(s) }

type fromEnv struct{}

func (fromEnv) Run(s string) string { return os.Getenv(s) }

// Setter changes the service start-up code made; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "pkgvarwholesetter", Capabilities: tool.Env}
}

// Execute trims a text, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return svc.do("AUDIT_PROBE"), nil
}

type service struct {
	r      runner
	prefix string
}

// An Option configures a service.
type Option func(*service)

// WithPrefix sets the prefix.
func WithPrefix(p string) Option { return func(s *service) { s.prefix = p } }

func newService(opts ...Option) *service {
	s := &service{r: trim{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *service) do(text string) string { return s.r.Run(text) }

var svc = newService(WithPrefix(">"))

// Execute changes the service.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	*svc = service{r: fromEnv{}}
	return "set", nil
}
