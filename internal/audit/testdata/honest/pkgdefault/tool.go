// Package pkgdefault is an honest pair of tools: Tool calls a service its
// package makes at start-up with an echoing runner (var defaultService =
// newService(echoRunner{})); Exec makes a service of its own over a runner
// that runs a program. Tool reaches none of Exec's.
package pkgdefault

import (
	"context"
	"os/exec"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a command line.
type Args struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

type runner interface {
	Run(ctx context.Context, name string, args ...string) (string, error)
}

type echoRunner struct{}

func (echoRunner) Run(ctx context.Context, name string, args ...string) (string, error) {
	return name + " " + strings.Join(args, " "), nil
}

type execRunner struct{ dir string }

func (r execRunner) Run(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

type service struct {
	r     runner
	mu    sync.Mutex
	calls int
}

func newService(r runner) *service { return &service{r: r} }

func (s *service) run(ctx context.Context, name string, args ...string) (string, error) {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	return s.r.Run(ctx, name, args...)
}

var defaultService = newService(echoRunner{})

// Tool echoes a command line.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "pkgdefault", Description: "echo a command line"}
}

// Execute echoes the command line.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return defaultService.run(ctx, args.Command, args.Args...)
}

// Exec runs a command.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "pkgdefault_exec", Description: "run a command", Capabilities: tool.Exec}
}

// Execute runs the command in /tmp.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	return newService(execRunner{dir: "/tmp"}).run(ctx, args.Command, args.Args...)
}
