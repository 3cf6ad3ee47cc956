// Package builder is an honest pair of tools of the capability audit's
// precision corpus: both build a service with a builder's method that
// sets its runner and returns the service
// (newService().WithRunner(echoRunner{}).do(ctx, text)), and call a
// method that calls the runner. Tool's runner echoes; Exec's runs a
// program, and Tool reaches none of it.
package builder

import (
	"context"
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

// WithRunner makes the service run its commands with r.
func (s *service) WithRunner(r runner) *service {
	s.r = r
	return s
}

func newService() *service {
	return &service{r: echoRunner{}, prefix: "echo"}
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
	return tool.Definition{ID: "builder", Description: "echo a text"}
}

// Execute echoes args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return newService().WithRunner(echoRunner{}).do(ctx, args.Text)
}

// Exec runs echo through the service.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "builder_exec", Description: "run echo", Capabilities: tool.Exec}
}

// Execute runs echo with args.Text.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	return newService().WithRunner(execRunner{}).do(ctx, args.Text)
}
