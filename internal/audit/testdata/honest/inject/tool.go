// Package inject is an honest pair of tools of the capability audit's
// precision corpus: both call a service whose constructor is given the
// runner it keeps in a field of an interface type (dependency injection:
// newService(echoRunner{}).do(ctx, text)), Tool through a helper that
// returns the service. Tool's runner echoes; Exec's runs a program, and
// Tool reaches none of it.
package inject

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

func newService(r runner, prefix string) *service { return &service{r: r, prefix: prefix} }

func (s *service) do(ctx context.Context, text string) (string, error) {
	out, err := s.r.Run(ctx, s.prefix, text)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

func echoService() *service { return newService(echoRunner{}, "echo") }

// Tool echoes a text through the service.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "inject", Description: "echo a text"}
}

// Execute echoes args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return echoService().do(ctx, args.Text)
}

// Exec runs echo through the service.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "inject_exec", Description: "run echo", Capabilities: tool.Exec}
}

// Execute runs echo with args.Text.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	s := &service{r: execRunner{}, prefix: "echo"}
	return s.do(ctx, args.Text)
}
