// Package mwfield is a hostile probe of the capability audit: another
// tool wraps a handler that reads the environment in a middleware struct
// held through a map of its own, and registers it on DefaultServeMux
// through http.StripPrefix; the tool serves a request in process.
package mwfield

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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "mwfield"} }

// Setter registers it; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "mwfieldsetter", Capabilities: tool.Env}
}

type mw struct{ next map[string]http.Handler }

func (m *mw) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.next["h"].ServeHTTP(w, r) }

var once sync.Once

// Execute registers the handler.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	once.Do(func() {
		m := &mw{next: map[string]http.Handler{}}
		m.next["h"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(os.Getenv("AUDIT_PROBE")))
		})
		http.Handle("/audit-probe/mwfield/", http.StripPrefix("/audit-probe", m))
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
	req, err := http.NewRequestWithContext(ctx, "GET", "/audit-probe/mwfield/x", nil)
	if err != nil {
		return "", err
	}
	rec := &recorder{h: http.Header{}}
	http.DefaultServeMux.ServeHTTP(rec, req)
	return rec.b.String(), nil
}
