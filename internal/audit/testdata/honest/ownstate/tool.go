// Package ownstate is an honest pair of the capability audit: each tool
// serves a request in process with a ServeMux of its own and logs with a
// log.Logger and an slog.Logger of its own, through shared helpers; Tool
// takes its handler, which reads a file, from a table of routes filled in
// init, and Plain's reaches nothing. Neither keeps anything in the
// standard library's package state (DefaultServeMux, log's default
// Logger, slog's default), and neither is charged with the other's
// handler.
package ownstate

import (
	"bytes"
	"context"
	"log"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args name the file Tool serves.
type Args struct{ Dir string }

// recorder is a ResponseWriter that keeps what is written.
type recorder struct {
	h http.Header
	b strings.Builder
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) Write(p []byte) (int, error) { return r.b.Write(p) }
func (r *recorder) WriteHeader(int)             {}

// route is a handler made for a directory.
type route func(dir string) http.HandlerFunc

// routes are the handlers by path, filled in init.
var routes = map[string]route{}

func init() {
	routes["/read"] = func(dir string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			b, err := os.ReadFile(filepath.Join(dir, "data.txt"))
			if err != nil {
				http.Error(w, err.Error(), http.StatusNotFound)
				return
			}
			w.Write(b)
		}
	}
}

// serve registers h on a mux of its own and serves path with it, logging
// both ways into out.
func serve(ctx context.Context, h http.Handler, path string, out *bytes.Buffer) (string, error) {
	mux := http.NewServeMux()
	mux.Handle(path, h)
	logger := log.New(out, "serve ", 0)
	sl := slog.New(slog.NewTextHandler(out, nil))
	req, err := http.NewRequestWithContext(ctx, "GET", path, nil)
	if err != nil {
		return "", err
	}
	rec := &recorder{h: http.Header{}}
	mux.ServeHTTP(rec, req)
	logger.Printf("served %s", path)
	sl.Info("served", "path", path, "bytes", rec.b.Len())
	return rec.b.String(), nil
}

// Tool serves a file of the directory it is given.
type Tool struct{}

// Definition declares read_files.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "ownstate", Capabilities: tool.ReadFiles}
}

// Execute serves the file.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var out bytes.Buffer
	return serve(ctx, routes["/read"](args.Dir), "/read", &out)
}

// Plain serves a greeting.
type Plain struct{}

// Definition declares nothing.
func (Plain) Definition() tool.Definition { return tool.Definition{ID: "ownstateplain"} }

// Execute serves the greeting.
func (Plain) Execute(ctx context.Context, args Args) (string, error) {
	var out bytes.Buffer
	return serve(ctx, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello"))
	}), "/hello", &out)
}
