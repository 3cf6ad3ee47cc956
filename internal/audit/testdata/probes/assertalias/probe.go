// Package assertalias is assertctx with an alias in the asserted
// interface's method: actor's Act takes a key, an alias of string, and
// trigger's Act a string; the method is the same, but methodKey spells
// the two signatures differently (types.TypeString keeps the alias).
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package assertalias

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "assertalias"} }

type trigger struct{}

func (trigger) Act(k string) string { return os.Getenv(k) }

type name = string

type key struct{}

type actor interface{ Act(name) string }

// Execute puts the trigger in a context and takes it out again.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	ctx = context.WithValue(ctx, key{}, trigger{})
	if a, ok := ctx.Value(key{}).(actor); ok {
		return a.Act("AUDIT_PROBE"), nil
	}
	return "", nil
}
