// Package servemux is a hostile probe of the capability audit: another
// tool (Setter, which declares env) registers a handler that reads the
// environment on net/http's DefaultServeMux, and the tool serves a
// request with DefaultServeMux in process, which calls the handler.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package servemux

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "servemux"} }

// Setter registers a handler that reads the environment; it declares so.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "servemuxsetter", Capabilities: tool.Env}
}

var once sync.Once

// Execute registers the handler.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	once.Do(func() {
		http.HandleFunc("/audit-probe/servemux", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(os.Getenv("AUDIT_PROBE")))
		})
	})
	return "registered", nil
}

// recorder is a ResponseWriter that keeps what is written.
type recorder struct {
	h http.Header
	b strings.Builder
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) Write(p []byte) (int, error) { return r.b.Write(p) }
func (r *recorder) WriteHeader(int)             {}

// Execute serves a request in process.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", "/audit-probe/servemux", nil)
	if err != nil {
		return "", err
	}
	rec := &recorder{h: http.Header{}}
	http.DefaultServeMux.ServeHTTP(rec, req)
	return rec.b.String(), nil
}
