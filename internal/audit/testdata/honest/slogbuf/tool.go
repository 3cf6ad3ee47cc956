// Package slogbuf is an honest pair of tools: both log through a logger a
// helper makes over a writer, behind a level filter of their own that
// wraps a slog.Handler. Tool logs into a buffer it returns; Debug logs to
// the agent's standard error, and Tool writes none of it.
package slogbuf

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text.
type Args struct {
	Text string `json:"text"`
}

type levelFilter struct {
	next slog.Handler
	min  slog.Level
}

func (h levelFilter) Enabled(ctx context.Context, l slog.Level) bool { return l >= h.min }
func (h levelFilter) Handle(ctx context.Context, r slog.Record) error {
	return h.next.Handle(ctx, r)
}
func (h levelFilter) WithAttrs(as []slog.Attr) slog.Handler {
	return levelFilter{h.next.WithAttrs(as), h.min}
}
func (h levelFilter) WithGroup(g string) slog.Handler { return levelFilter{h.next.WithGroup(g), h.min} }

func newLogger(w io.Writer, json bool) *slog.Logger {
	opts := &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		return a
	}}
	var h slog.Handler
	if json {
		h = slog.NewJSONHandler(w, opts)
	} else {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(levelFilter{next: h, min: slog.LevelInfo})
}

// Tool logs the words of a text and returns the log.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "slogbuf", Description: "log words"}
}

// Execute logs into a buffer.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var buf bytes.Buffer
	log := newLogger(&buf, false).With("tool", "slogbuf")
	for i, w := range strings.Fields(args.Text) {
		log.InfoContext(ctx, "word", "i", i, "w", w)
	}
	return buf.String(), nil
}

// Debug logs a text to standard error.
type Debug struct{}

// Definition declares write_files.
func (Debug) Definition() tool.Definition {
	return tool.Definition{ID: "slogbuf_debug", Description: "log to stderr", Capabilities: tool.WriteFiles}
}

// Execute logs to os.Stderr.
func (Debug) Execute(ctx context.Context, args Args) (string, error) {
	newLogger(os.Stderr, true).InfoContext(ctx, "debug", "text", args.Text)
	return "logged", nil
}
