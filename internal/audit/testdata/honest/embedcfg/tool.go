// Package embedcfg is an honest pair of tools of the capability audit's
// precision corpus: both make a client that embeds the configuration
// struct its constructor is given, whose exported runner field its
// method calls (c.Runner.Run(…) after newClient(Config{Runner:
// echoRunner{}})). Tool's runner echoes; Exec's runs a program, and Tool
// reaches none of it.
package embedcfg

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

// Config configures a client.
type Config struct {
	Runner runner
	Prefix string
}

type client struct {
	Config
	mu sync.Mutex
}

func newClient(cfg Config) *client {
	if cfg.Runner == nil {
		cfg.Runner = echoRunner{}
	}
	return &client{Config: cfg}
}

func (c *client) do(ctx context.Context, text string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Runner.Run(ctx, c.Prefix, text)
}

// Tool echoes a text through the client.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "embedcfg", Description: "echo a text"}
}

// Execute echoes args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return newClient(Config{Runner: echoRunner{}, Prefix: ">"}).do(ctx, args.Text)
}

// Exec runs echo through the client.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "embedcfg_exec", Description: "run echo", Capabilities: tool.Exec}
}

// Execute runs echo with args.Text.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	return newClient(Config{Runner: execRunner{}, Prefix: "echo"}).do(ctx, args.Text)
}
