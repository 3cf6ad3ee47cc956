// Package muxfield is a hostile probe of the capability audit: another tool
// (Setter, which declares env) registers a handler that reads the
// environment on http.DefaultServeMux, held in a field of a struct of its
// own by a method of the struct, and the tool serves a request with
// DefaultServeMux, which calls it.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package muxfield

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "muxfield"} }

// Setter registers the handler; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "muxfieldsetter", Capabilities: tool.Env}
}

type server struct{ mux *http.ServeMux }

func (s *server) routes() {
	s.mux.HandleFunc("/audit-probe/muxfield", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(os.Getenv("AUDIT_PROBE")))
	})
}

var once sync.Once

// Execute registers the handler.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	once.Do(func() {
		s := &server{mux: http.DefaultServeMux}
		s.routes()
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
	req, err := http.NewRequestWithContext(ctx, "GET", "/audit-probe/muxfield", nil)
	if err != nil {
		return "", err
	}
	rec := &recorder{h: http.Header{}}
	http.DefaultServeMux.ServeHTTP(rec, req)
	return rec.b.String(), nil
}
