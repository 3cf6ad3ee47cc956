// Package pkgsvc is an honest pair of tools of the capability audit's
// precision corpus: Tool calls a method of a service start-up code made
// and keeps in a package variable (var echoSvc = newService(...)), one
// with a runner its functional option sets (func(s *service) { s.r = r
// }) and one whose exported runner field its literal sets; the method
// calls the runner. Exec makes a service of its own whose runner runs a
// program, and Tool reaches none of it.
package pkgsvc

import (
	"context"
	"os/exec"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the text.
type Args struct {
	Text string `json:"text"`
}

type runner interface {
	Run(ctx context.Context, args ...string) (string, error)
}

type echoRunner struct{}

func (echoRunner) Run(ctx context.Context, args ...string) (string, error) {
	return strings.Join(args, " "), nil
}

type execRunner struct{}

func (execRunner) Run(ctx context.Context, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).Output()
	return string(out), err
}

type service struct {
	r    runner
	name string
}

// An Option configures a service.
type Option func(*service)

// WithRunner makes the service run its commands with r.
func WithRunner(r runner) Option { return func(s *service) { s.r = r } }

func newService(name string, opts ...Option) *service {
	s := &service{name: name}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *service) do(ctx context.Context, text string) (string, error) {
	return s.r.Run(ctx, s.name, text)
}

// Client runs its commands with Runner.
type Client struct {
	Runner runner
	Prefix string
}

func (c *Client) run(ctx context.Context, text string) (string, error) {
	return c.Runner.Run(ctx, c.Prefix, text)
}

var (
	echoSvc    = newService("echo", WithRunner(echoRunner{}))
	echoClient = &Client{Runner: echoRunner{}, Prefix: ">"}
)

// Tool echoes a text through the services made at start-up.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "pkgsvc", Description: "echo a text"}
}

// Execute echoes args.Text twice.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	a, err := echoSvc.do(ctx, args.Text)
	if err != nil {
		return "", err
	}
	b, err := echoClient.run(ctx, args.Text)
	return a + "\n" + b, err
}

// Exec runs echo through services of its own.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "pkgsvc_exec", Description: "run echo", Capabilities: tool.Exec}
}

// Execute runs echo with args.Text twice.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	a, err := newService("echo", WithRunner(execRunner{})).do(ctx, args.Text)
	if err != nil {
		return "", err
	}
	c := &Client{Runner: execRunner{}, Prefix: "echo"}
	b, err := c.run(ctx, args.Text)
	return a + b, err
}
