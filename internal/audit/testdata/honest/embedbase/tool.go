// Package embedbase is an honest pair of tools: two services embed one
// base struct whose notifier (an interface field) a promoted method
// calls. Tool's service collects notes in memory; Exec's sends them to a
// program, and Tool runs none.
package embedbase

import (
	"context"
	"os/exec"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text.
type Args struct {
	Text string `json:"text"`
}

type notifier interface {
	Notify(ctx context.Context, msg string) error
}

type memNotifier struct{ msgs []string }

func (m *memNotifier) Notify(_ context.Context, msg string) error {
	m.msgs = append(m.msgs, msg)
	return nil
}

type cmdNotifier struct{ prog string }

func (c cmdNotifier) Notify(ctx context.Context, msg string) error {
	return exec.CommandContext(ctx, c.prog, msg).Run()
}

type base struct {
	name string
	n    notifier
}

func (b *base) notify(ctx context.Context, msg string) error {
	return b.n.Notify(ctx, b.name+": "+msg)
}

type wordService struct {
	base
	words int
}

func (s *wordService) count(ctx context.Context, text string) error {
	s.words = len(strings.Fields(text))
	return s.notify(ctx, "counted")
}

type alertService struct{ base }

func (s *alertService) alert(ctx context.Context, text string) error {
	return s.notify(ctx, strings.ToUpper(text))
}

// Tool counts words and shows its notes.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "embedbase", Description: "count words"}
}

// Execute counts args.Text's words.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	m := &memNotifier{}
	s := &wordService{base: base{name: "words", n: m}}
	if err := s.count(ctx, args.Text); err != nil {
		return "", err
	}
	return strings.Join(m.msgs, "\n"), nil
}

// Exec sends an alert with logger(1).
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "embedbase_exec", Description: "alert", Capabilities: tool.Exec}
}

// Execute alerts args.Text.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	s := &alertService{base{name: "alert", n: cmdNotifier{prog: "logger"}}}
	return "sent", s.alert(ctx, args.Text)
}
