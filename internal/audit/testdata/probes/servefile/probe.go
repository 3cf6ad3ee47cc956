// Package servefile is a hostile probe of the capability audit: a tool
// that may only use the network reads a file with http.ServeFile into a
// response it records: package net/http's rule, network, stood for the
// open ServeFile makes of any name.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package servefile

import (
	"context"
	"net/http"
	"net/http/httptest"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does as the audit classifies it: it
// reads a file (and ServeFile is package net/http's, network).
const Want = tool.Network | tool.ReadFiles

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "servefile"} }

// Execute serves a file of the test's directory into a recorder.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	w := httptest.NewRecorder()
	r := httptest.NewRequestWithContext(ctx, http.MethodGet, "/probes_test.go", nil)
	http.ServeFile(w, r, "probes_test.go")
	b := w.Body.Bytes()
	return string(b[:min(len(b), 20)]), nil
}
