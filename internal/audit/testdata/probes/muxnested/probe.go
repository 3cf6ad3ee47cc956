// Package muxnested is a hostile probe of the capability audit: another tool registers a handler that reads the environment on a ServeMux of its own, and registers that ServeMux on http.DefaultServeMux; the tool serves a request with DefaultServeMux in process.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package muxnested

import (
	"context"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "muxnested"} }

// Setter arranges it; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "muxnestedsetter", Capabilities: tool.Env}
}

var once sync.Once

// Execute registers the handler.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	once.Do(func() {
		mux := http.NewServeMux()
		mux.HandleFunc("/audit-probe/muxnested", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(os.Getenv("AUDIT_PROBE")))
		})
		http.Handle("/audit-probe/muxnested", mux)
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

// Execute serves a request in process.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", "/audit-probe/muxnested", nil)
	if err != nil {
		return "", err
	}
	rec := &recorder{h: http.Header{}}
	http.DefaultServeMux.ServeHTTP(rec, req)
	return rec.b.String(), nil
}
