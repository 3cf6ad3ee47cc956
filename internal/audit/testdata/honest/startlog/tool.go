// Package startlog is an honest tool of the capability audit's precision
// corpus: its package variables hold what Go programs make at start and
// use later: a slog logger and a log.Logger over os.Stderr, a buffered
// writer, a JSON encoder, and a template whose functions read the
// environment. Making them writes and reads nothing: start-up reaches
// nothing, and the tool, which uses them, reaches what they do.
package startlog

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"os"
	"strings"
	"text/template"

	"github.com/toolreg/toolreg/tool"
)

// Tool renders a greeting.
type Tool struct{}

// Args name who to greet.
type Args struct {
	Name string `json:"name"`
}

// Definition declares the writing (the logs) and the environment.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "startlog", Description: "greet someone", Capabilities: tool.WriteFiles | tool.Env}
}

var (
	logger = slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	std    = log.New(os.Stderr, "startlog: ", log.LstdFlags)
	diag   = bufio.NewWriter(io.Discard)
	enc    = json.NewEncoder(io.Discard)
	page   = template.Must(template.New("greet").Funcs(template.FuncMap{
		"env":   os.Getenv,
		"upper": strings.ToUpper,
	}).Parse(`{{upper .Name}}, from {{env "USER"}}`))
)

// Execute renders the greeting.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	if err := page.Execute(&b, args); err != nil {
		logger.Warn("render", "err", err)
		std.Print(err)
		return "", err
	}
	_ = enc.Encode(args)
	_, _ = diag.WriteString(b.String())
	return b.String(), diag.Flush()
}
