// Package optservice is an honest pair of tools of the capability audit's
// precision corpus: both build a service with functional options its
// constructor applies to the pointer it returns
// (newService(WithRunner(echoRunner{})).do(ctx, text), with
// func(s *service) { s.r = r }), and call a method of the service that
// calls the runner. Tool's runner echoes; Exec's runs a program, and Tool
// reaches none of it.
package optservice

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
	r      runner
	prefix string
}

// An Option configures a service.
type Option func(*service)

// WithRunner makes the service run its commands with r.
func WithRunner(r runner) Option { return func(s *service) { s.r = r } }

// WithPrefix makes the service put p before the text.
func WithPrefix(p string) Option { return func(s *service) { s.prefix = p } }

func newService(opts ...Option) *service {
	s := &service{r: echoRunner{}, prefix: "echo"}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *service) do(ctx context.Context, text string) (string, error) {
	out, err := s.r.Run(ctx, s.prefix, text)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// Tool echoes a text through the service.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "optservice", Description: "echo a text"}
}

// Execute echoes args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return newService(WithPrefix(">"), WithRunner(echoRunner{})).do(ctx, args.Text)
}

// Exec runs echo through the service.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "optservice_exec", Description: "run echo", Capabilities: tool.Exec}
}

// Execute runs echo with args.Text.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	return newService(WithRunner(execRunner{})).do(ctx, args.Text)
}
