// Package bushooks is an honest pair of tools: both make an event bus of
// their own and register hooks with its Use method, which appends them to
// the bus's slice field. Tool's hooks only change the text; Audit's last
// hook appends the event to a log file, and Tool reaches none of it.
package bushooks

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a message.
type Args struct {
	Text string `json:"text"`
	Log  string `json:"log"`
}

type event struct {
	Text string
	Tags []string
}

type hook func(*event) error

type bus struct{ hooks []hook }

// Use adds h to the hooks the bus runs.
func (b *bus) Use(h hook) *bus {
	b.hooks = append(b.hooks, h)
	return b
}

func (b *bus) publish(e *event) error {
	for _, h := range b.hooks {
		if err := h(e); err != nil {
			return err
		}
	}
	return nil
}

func trimHook(e *event) error {
	e.Text = strings.TrimSpace(e.Text)
	return nil
}

func tagHook(e *event) error {
	for _, w := range strings.Fields(e.Text) {
		if strings.HasPrefix(w, "#") {
			e.Tags = append(e.Tags, w[1:])
		}
	}
	return nil
}

func appendTo(path string) hook {
	return func(e *event) error {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = fmt.Fprintf(f, "%s %v\n", e.Text, e.Tags)
		return err
	}
}

// Tool finds the tags of a message.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "bushooks", Description: "find tags"}
}

// Execute publishes the message on a bus of its own.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b bus
	b.Use(trimHook).Use(tagHook)
	e := &event{Text: args.Text}
	if err := b.publish(e); err != nil {
		return "", err
	}
	return strings.Join(e.Tags, ","), nil
}

// Audit logs a message.
type Audit struct{}

// Definition declares write_files.
func (Audit) Definition() tool.Definition {
	return tool.Definition{ID: "bushooks_audit", Description: "log a message", Capabilities: tool.WriteFiles}
}

// Execute publishes the message on a bus that logs it.
func (Audit) Execute(ctx context.Context, args Args) (string, error) {
	b := &bus{}
	b.Use(trimHook)
	b.Use(tagHook)
	b.Use(appendTo(args.Log))
	e := &event{Text: args.Text}
	return "logged", b.publish(e)
}
