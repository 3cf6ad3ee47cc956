package toolbox

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// httpxSeen is what a fake server recorded of one request.
type httpxSeen struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   string
}

// httpxFake is a loopback HTTP server whose routes serve canned answers and
// record every request.
type httpxFake struct {
	URL string
	srv *httptest.Server

	mu   sync.Mutex
	seen []httpxSeen
}

// newHTTPXFake starts a server with the given routes (path to handler); any
// other path fails the test.
func newHTTPXFake(t *testing.T, routes map[string]http.HandlerFunc) *httpxFake {
	t.Helper()
	f := &httpxFake{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("reading the request body: %v", err)
		}
		f.mu.Lock()
		f.seen = append(f.seen, httpxSeen{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: string(body)})
		f.mu.Unlock()
		h, ok := routes[r.URL.Path]
		if !ok || h == nil {
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	f.srv = srv
	return f
}

// requests returns the requests seen so far.
func (f *httpxFake) requests() []httpxSeen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]httpxSeen(nil), f.seen...)
}

// httpxServeFixture answers with the file testdata/<dir>/<name> and status.
func httpxServeFixture(t *testing.T, dir, name string, status int) http.HandlerFunc {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", dir, name))
	if err != nil {
		t.Fatalf("reading fixture: %v", err)
	}
	return httpxServeBody(status, "application/json; charset=utf-8", string(data))
}

// httpxServeBody answers with body, of the given content type, and status.
func httpxServeBody(status int, contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// httpxServeStall answers nothing until the client gives up or the test ends.
func httpxServeStall(t *testing.T) http.HandlerFunc {
	t.Helper()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
}

// httpxEnv returns a getenv that reads m and nothing else.
func httpxEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// checkStatusError checks that err has the message want and carries the
// HTTP status of the answer that caused it.
func checkStatusError(t *testing.T, err error, want string, status int) {
	t.Helper()
	if err == nil {
		t.Fatal("Execute succeeded, want an error")
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	var se *httpxStatusError
	if !errors.As(err, &se) || se.Status != status {
		t.Errorf("error %v does not carry status %d", err, status)
	}
}
