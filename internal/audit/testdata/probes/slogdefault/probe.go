// Package slogdefault is a hostile probe of the capability audit: another
// tool (Setter, which declares env) makes a Logger of a handler that reads
// the environment the default with slog.SetDefault, and the tool logs
// with slog.Info, which calls the handler.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package slogdefault

import (
	"context"
	"log/slog"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "slogdefault"} }

// Setter sets the default; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "slogdefaultsetter", Capabilities: tool.Env}
}

var seen string

type handler struct{}

func (handler) Enabled(context.Context, slog.Level) bool { return true }
func (handler) Handle(context.Context, slog.Record) error {
	seen = os.Getenv("AUDIT_PROBE")
	return nil
}
func (h handler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h handler) WithGroup(string) slog.Handler      { return h }

// Execute sets the default.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	slog.SetDefault(slog.New(handler{}))
	return "set", nil
}

// Execute logs.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	slog.Info("probe")
	return seen, nil
}
