// Package ctxrecorder is an honest pair of tools: both put a recorder in
// the context (context.WithValue) that a shared helper takes out and
// records into. Tool's recorder keeps lines in memory; Journal's appends
// them to a file, and Tool writes none.
package ctxrecorder

import (
	"context"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text and a journal.
type Args struct {
	Text    string `json:"text"`
	Journal string `json:"journal"`
}

type recorder interface{ Record(msg string) }

type ctxKey struct{}

func withRecorder(ctx context.Context, r recorder) context.Context {
	return context.WithValue(ctx, ctxKey{}, r)
}

func record(ctx context.Context, msg string) {
	if r, ok := ctx.Value(ctxKey{}).(recorder); ok {
		r.Record(msg)
	}
}

type memRecorder struct{ lines []string }

func (m *memRecorder) Record(msg string) { m.lines = append(m.lines, msg) }

type fileRecorder struct{ path string }

func (f fileRecorder) Record(msg string) {
	file, err := os.OpenFile(f.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer file.Close()
	file.WriteString(msg + "\n")
}

func process(ctx context.Context, text string) string {
	record(ctx, "start")
	out := strings.ToUpper(text)
	record(ctx, "upper: "+out)
	return out
}

// Tool upper-cases a text and returns its trace.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "ctxrecorder", Description: "upper-case"}
}

// Execute processes args.Text with a memory recorder.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	rec := &memRecorder{}
	out := process(withRecorder(ctx, rec), args.Text)
	return out + "\n" + strings.Join(rec.lines, "\n"), nil
}

// Journal upper-cases a text and journals it.
type Journal struct{}

// Definition declares write_files.
func (Journal) Definition() tool.Definition {
	return tool.Definition{ID: "ctxrecorder_journal", Description: "journal", Capabilities: tool.WriteFiles}
}

// Execute processes args.Text with a file recorder.
func (Journal) Execute(ctx context.Context, args Args) (string, error) {
	return process(withRecorder(ctx, fileRecorder{args.Journal}), args.Text), nil
}
