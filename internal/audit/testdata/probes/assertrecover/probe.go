// Package assertrecover: get's named result holds a trigger when a
// panic is recovered; its only return statement returns nil.
package assertrecover

import (
	"context"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "assertrecover"} }

type trigger struct{}

func (trigger) act() string { return os.Getenv("AUDIT_PROBE") }

type actor interface{ act() string }

func boom(n int) {
	if n > 0 {
		panic("x")
	}
}

func get(n int) (r any) {
	defer func() { recover() }()
	r = trigger{}
	boom(n)
	return nil
}

// Execute asserts what get returns.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if a, ok := get(len(args.Dir) + 1).(actor); ok {
		return a.act(), nil
	}
	return "", nil
}
