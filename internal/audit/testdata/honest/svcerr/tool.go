// Package svcerr is an honest pair of tools of the capability audit's
// precision corpus: both build a service with functional options its
// constructor applies to the pointer it returns with an error
// (s, err := newService(WithRunner(echoRunner{}))), return nil, err
// on a check, and call a method that locks the service's mutex and
// calls the runner. Tool's runner echoes; Exec's runs a program, and
// Tool reaches none of it.
package svcerr

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"

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
	mu     sync.Mutex
	r      runner
	prefix string
	calls  int
}

// An Option configures a service.
type Option func(*service)

// WithRunner makes the service run its commands with r.
func WithRunner(r runner) Option { return func(s *service) { s.r = r } }

func newService(opts ...Option) (*service, error) {
	s := &service{r: echoRunner{}, prefix: "echo"}
	for _, o := range opts {
		o(s)
	}
	if s.r == nil {
		return nil, errors.New("no runner")
	}
	return s, nil
}

func (s *service) do(ctx context.Context, text string) (string, error) {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	return s.r.Run(ctx, s.prefix, text)
}

// Tool echoes a text through the service.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "svcerr", Description: "echo a text"}
}

// Execute echoes args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	s, err := newService(WithRunner(echoRunner{}))
	if err != nil {
		return "", err
	}
	return s.do(ctx, args.Text)
}

// Exec runs echo through the service.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "svcerr_exec", Description: "run echo", Capabilities: tool.Exec}
}

// Execute runs echo with args.Text.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	s, err := newService(WithRunner(execRunner{}))
	if err != nil {
		return "", err
	}
	return s.do(ctx, args.Text)
}
