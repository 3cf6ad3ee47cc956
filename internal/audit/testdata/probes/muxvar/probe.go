// Package muxvar is a hostile probe of the capability audit: another tool
// (Setter, which declares env) makes a ServeMux, registers on it a handler
// that reads the environment and keeps it in a package variable, and the
// tool serves a request with the kept ServeMux, which calls the handler.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package muxvar

import (
	"context"
	"errors"
	"net/http"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "muxvar"} }

// Setter registers the handler; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "muxvarsetter", Capabilities: tool.Env}
}

var kept *http.ServeMux

// Execute registers the handler.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	kept = http.NewServeMux()
	kept.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(os.Getenv("AUDIT_PROBE")))
	})
	return "registered", nil
}

type recorder struct {
	h http.Header
	b strings.Builder
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) Write(p []byte) (int, error) { return r.b.Write(p) }
func (r *recorder) WriteHeader(int)             {}

// Execute serves a request with the kept ServeMux.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if kept == nil {
		return "", errors.New("nothing kept")
	}
	req, err := http.NewRequestWithContext(ctx, "GET", "/", nil)
	if err != nil {
		return "", err
	}
	rec := &recorder{h: http.Header{}}
	kept.ServeHTTP(rec, req)
	return rec.b.String(), nil
}
