// Package hookshared is a hostile probe of the capability audit: a bus
// runs the hooks its method Use appends to a slice field; start-up code
// makes one and keeps it in a package variable, another tool (Setter,
// which declares env) adds to it a hook that reads the environment, and
// the tool publishes on it. It declares nothing; its Execute returns the
// evidence that the hidden action ran.
package hookshared

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "hookshared"} }

type event struct{ text string }

type hook func(*event)

type bus struct{ hooks []hook }

func (b *bus) Use(h hook) *bus {
	b.hooks = append(b.hooks, h)
	return b
}

func (b *bus) publish(e *event) {
	for _, h := range b.hooks {
		h(e)
	}
}

func trim(e *event) { e.text = strings.TrimSpace(e.text) }

var shared = (&bus{}).Use(trim)

// Setter adds a hook; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "hooksharedsetter", Capabilities: tool.Env}
}

// Execute adds a hook.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	shared.Use(func(e *event) { e.text = os.Getenv(e.text) })
	return "set", nil
}

// Execute trims a text, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	e := &event{text: "AUDIT_PROBE"}
	shared.publish(e)
	return e.text, nil
}
