package toolmcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/internal/origin"
	"github.com/toolreg/toolreg/redact"
)

// TestMountedChildEnvironment mounts a server that dumps its environment:
// it sees the minimal set and what -mcp-env passed, never the API keys.
func TestMountedChildEnvironment(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"PATH":           os.Getenv("PATH"),
		"HOME":           "/home/test",
		"LANG":           "C.UTF-8",
		"LLM_API_KEY":    "sk-must-not-leak-0001",
		"BRAVE_API_KEY":  "brave-must-not-leak",
		"TAVILY_API_KEY": "tvly-must-not-leak-01",
		"GITHUB_TOKEN":   "gh-passed-on-purpose",
	}
	getenv := func(k string) string { return env[k] }
	m := mount(t, []string{stdioSpec(t, "plain"), stdioSpec(t, "gh")}, &MountOptions{
		Getenv: getenv,
		Env:    map[string][]string{"gh": {"GITHUB_TOKEN", "NOT_SET"}},
	})
	for _, tt := range []struct {
		server string
		want   []string
	}{
		{"plain", []string{"HOME=/home/test", "LANG=C.UTF-8", "PATH=" + env["PATH"], serverEnv + "=remote"}},
		{"gh", []string{"GITHUB_TOKEN=gh-passed-on-purpose", "HOME=/home/test", "LANG=C.UTF-8", "PATH=" + env["PATH"], serverEnv + "=remote"}},
	} {
		res := joined(t, nil, m).Call(context.Background(), tt.server+"__environ", "{}")
		if res.Failed() {
			t.Fatalf("%s: %s", tt.server, res.Text)
		}
		got := strings.Split(res.Text, "\n")
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s environment (-want +got):\n%s", tt.server, diff)
		}
	}
}

// TestMountHeaders sends a header expanded from the environment to the
// server's own host, not along a redirect to another host, and never
// prints it.
func TestMountHeaders(t *testing.T) {
	t.Parallel()
	const token = "docs-token-0123456789"
	var mu sync.Mutex
	seen := map[string][]string{} // host → Authorization values
	record := func(name string) func(http.Handler) http.Handler {
		return func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen[name] = append(seen[name], r.Header.Get("Authorization"))
				mu.Unlock()
				h.ServeHTTP(w, r)
			})
		}
	}
	srv := sdkServer()
	other := httptest.NewServer(record("other")(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})))
	t.Cleanup(other.Close)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true}))
	mux.Handle("/moved", http.RedirectHandler(other.URL+"/mcp", http.StatusTemporaryRedirect))
	docs := httptest.NewServer(record("docs")(mux))
	t.Cleanup(docs.Close)

	var warn syncBuffer
	getenv := func(k string) string { return map[string]string{"DOCS_TOKEN": token}[k] }
	m := mount(t, []string{"docs=" + docs.URL + "/mcp", "moved=" + docs.URL + "/moved"}, &MountOptions{
		Getenv:  getenv,
		Warn:    &warn,
		Headers: map[string][]string{"docs": {"Authorization: Bearer $DOCS_TOKEN"}, "moved": {"Authorization: Bearer ${DOCS_TOKEN}"}},
		// The redirect to the other loopback server is followed.
		Egress: allowLoopback(t),
	})
	if !slices.Contains(m.Servers(), "moved") {
		t.Fatalf("the redirected server is not mounted: %s", warn.String())
	}
	if res := joined(t, nil, m).Call(context.Background(), "docs__echo", `{"text":"hi"}`); res.Failed() {
		t.Fatalf("docs__echo: %s", res.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, v := range seen["docs"] {
		if v != "Bearer "+token {
			t.Errorf("the docs server got Authorization %q, want the expanded token", v)
		}
	}
	if len(seen["docs"]) == 0 {
		t.Error("the docs server got no requests")
	}
	for _, v := range seen["other"] {
		if v != "" {
			t.Errorf("the redirect target got Authorization %q", v)
		}
	}
	if strings.Contains(warn.String(), token) {
		t.Errorf("a warning shows the token: %s", warn.String())
	}
}

func TestMountHeaderErrors(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	getenv := func(k string) string { return map[string]string{"SET": "secret-value-1234"}[k] }
	tests := []struct {
		name    string
		opts    MountOptions
		wantErr string
	}{
		{"unset variable", MountOptions{Headers: map[string][]string{"docs": {"X-Key: $UNSET"}}}, "$UNSET not set"},
		{"no header name", MountOptions{Headers: map[string][]string{"docs": {"no colon $SET"}}}, "Name: value"},
		{"unknown server", MountOptions{Headers: map[string][]string{"nope": {"X: y"}}}, "no HTTP server"},
		{"env for an HTTP server", MountOptions{Env: map[string][]string{"docs": {"SET"}}}, "no stdio server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Getenv = getenv
			_, err := Mount(context.Background(), []string{"docs=" + ts.URL}, &tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Mount = %v, want an error with %q", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "secret-value") {
				t.Errorf("the error shows a value: %v", err)
			}
		})
	}
}

func TestWarningsRedacted(t *testing.T) {
	var warn syncBuffer
	mount(t, []string{"gone=http://user:hunter2@127.0.0.1:1/mcp"}, &MountOptions{Warn: &warn})
	if strings.Contains(warn.String(), "hunter2") || !strings.Contains(warn.String(), "gone") {
		t.Errorf("warning %q", warn.String())
	}
}

// TestMountEnvSecretRedacted: a credential passed to a stdio server by
// name (-mcp-env gh=GITHUB_TOKEN) is a secret like a header's key: a
// server that answers with it (an error quoting the token it was given, a
// dump of its environment) does not hand it to the model. A variable not
// named like a credential is not one.
func TestMountEnvSecretRedacted(t *testing.T) {
	t.Parallel()
	const token = "gh-token-0123456789abcdef"
	env := map[string]string{"PATH": os.Getenv("PATH"), "GITHUB_TOKEN": token, "GH_ORG": "acme-corp-org"}
	var secrets redact.Set
	m := mount(t, []string{stdioSpec(t, "gh")}, &MountOptions{
		Getenv:  func(k string) string { return env[k] },
		Env:     map[string][]string{"gh": {"GITHUB_TOKEN", "GH_ORG"}},
		Secrets: &secrets,
	})
	reg := joined(t, nil, m).WithRedact(func(s string) string { return secrets.String(s) })
	res := reg.Call(context.Background(), "gh__environ", "{}")
	if res.Failed() || !strings.Contains(res.Text, "GH_ORG=acme-corp-org") {
		t.Fatalf("gh__environ: %s", res.Text)
	}
	if strings.Contains(res.Text, token[:10]) {
		t.Errorf("the server's token reached the result: %s", res.Text)
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestHeadersOnlyToTheOrigin: the -mcp-header headers go to the server's
// own origin only: not to another host, and not to its own host over
// http when it was configured over https (a redirect that would carry
// them in clear); the host's case does not matter.
func TestHeadersOnlyToTheOrigin(t *testing.T) {
	t.Parallel()
	var got string
	ht := &headerTransport{
		base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = r.Header.Get("X-Api-Key")
			return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
		}),
		origin: origin.Of(&url.URL{Scheme: "https", Host: "docs.example:8443"}),
		header: http.Header{"X-Api-Key": {"key-0123456789"}},
	}
	for _, tt := range []struct {
		url, want string
	}{
		{"https://docs.example:8443/mcp", "key-0123456789"},
		{"https://DOCS.example:8443/mcp", "key-0123456789"},
		{"http://docs.example:8443/mcp", ""},
		{"https://docs.example/mcp", ""},
		{"https://other.example:8443/mcp", ""},
	} {
		got = "unset"
		req := httptest.NewRequest("POST", tt.url, nil)
		req.RequestURI = ""
		if _, err := ht.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s: X-Api-Key %q, want %q", tt.url, got, tt.want)
		}
	}
}
