package mcpauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/mcpauth/mcpauthtest"
	"github.com/toolreg/toolreg/redact"
)

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// allow returns the egress policy that allows the authorization server's
// loopback address, and nothing else local.
func allow(t *testing.T, as *mcpauthtest.AuthServer) *egress.Policy {
	t.Helper()
	u, _ := url.Parse(as.URL())
	p, err := egress.Parse(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// call connects to the server at endpoint with h and calls its echo
// tool, returning the text or the error.
func call(t *testing.T, h *Handler, endpoint string) (string, error) {
	t.Helper()
	ctx := t.Context()
	c := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: h, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		return "", err
	}
	return res.Content[0].(*mcp.TextContent).Text, nil
}

// newHandler makes the handler of m with options that play the browser.
func newHandler(t *testing.T, m *mcpauthtest.Server, cfg Config, opts Options) *Handler {
	t.Helper()
	h, err := New("docs", m.Endpoint(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestCodeFlow signs in with the authorization code grant, PKCE and a
// dynamically registered client, the test playing the browser; keeps the
// token in a 0600 file; registers it as a secret; and a second run uses
// the kept token without a sign-in.
func TestCodeFlow(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	m := mcpauthtest.NewServer(t, as)
	dir := filepath.Join(t.TempDir(), "state", "oauth")
	var b mcpauthtest.Browser
	var prompt syncBuffer
	secrets := &redact.Set{}
	opts := Options{Store: &Store{Dir: dir}, Secrets: secrets, Policy: allow(t, as), Interactive: true, Prompt: &prompt, Browse: b.Browse}
	got, err := call(t, newHandler(t, m, Config{}, opts), m.Endpoint())
	if err != nil {
		t.Fatalf("call: %v\nprompt: %s", err, prompt.String())
	}
	if got != "echo: hi" {
		t.Errorf("echo = %q", got)
	}
	if b.Count() != 1 {
		t.Errorf("the browser was opened %d times, want 1", b.Count())
	}
	if !strings.Contains(prompt.String(), as.URL()+"/authorize?") || !strings.Contains(prompt.String(), "signed in") {
		t.Errorf("prompt does not show the authorization URL and the outcome:\n%s", prompt.String())
	}
	grants, resources := as.TokenRequests()
	if diff := cmp.Diff([]string{"authorization_code"}, grants); diff != "" {
		t.Errorf("token requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{m.Endpoint()}, resources); diff != "" {
		t.Errorf("resources of the token requests (-want +got):\n%s", diff)
	}

	// The token file: 0600 in a 0700 directory, for this endpoint.
	st := &Store{Dir: dir}
	rec, err := st.Load(m.Endpoint())
	if err != nil || rec == nil {
		t.Fatalf("Load = %v, %v", rec, err)
	}
	for _, p := range []struct {
		path string
		want os.FileMode
	}{{dir, 0o700}, {st.path(m.Endpoint()), 0o600}} {
		fi, err := os.Stat(p.path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != p.want {
			t.Errorf("%s has mode %04o, want %04o", p.path, fi.Mode().Perm(), p.want)
		}
	}
	if rec.Issuer != as.URL() || rec.ClientID != "dyn-1" || rec.RefreshToken == "" || rec.Resource != m.Endpoint() {
		t.Errorf("record = %+v", rec)
	}
	// Every output path that redacts with the set hides both tokens.
	if diff := cmp.Diff([]string{rec.AccessToken, rec.RefreshToken}, secrets.Values()); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
	if out := secrets.String("token " + rec.AccessToken[10:40]); strings.Contains(out, rec.AccessToken[10:40]) {
		t.Errorf("a part of the access token is not redacted: %s", out)
	}

	// The next run, without a terminal, uses the kept token.
	opts2 := Options{Store: &Store{Dir: dir}, Secrets: &redact.Set{}, Policy: allow(t, as)}
	if got, err := call(t, newHandler(t, m, Config{}, opts2), m.Endpoint()); err != nil || got != "echo: hi" {
		t.Fatalf("second run: %q, %v", got, err)
	}
	if grants, _ := as.TokenRequests(); len(grants) != 1 {
		t.Errorf("the second run made token requests: %q", grants)
	}
	if b.Count() != 1 {
		t.Errorf("the second run opened the browser")
	}
}

// TestClientCredentials gets a token unattended with a configured client
// and secret, and never opens a browser.
func TestClientCredentials(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	as.Preregister("svc", "svc-secret-0123456789")
	m := mcpauthtest.NewServer(t, as)
	var b mcpauthtest.Browser
	secrets := &redact.Set{}
	cfg := Config{ClientID: "svc", ClientSecret: "svc-secret-0123456789", Grant: GrantClientCredentials, Scopes: []string{"tools:read"}}
	h := newHandler(t, m, cfg, Options{Store: &Store{Dir: t.TempDir() + "/oauth"}, Secrets: secrets, Policy: allow(t, as), Browse: b.Browse})
	if got, err := call(t, h, m.Endpoint()); err != nil || got != "echo: hi" {
		t.Fatalf("call = %q, %v", got, err)
	}
	grants, resources := as.TokenRequests()
	if diff := cmp.Diff([]string{"client_credentials"}, grants); diff != "" {
		t.Errorf("token requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{m.Endpoint()}, resources); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if b.Count() != 0 {
		t.Error("the client credentials grant opened a browser")
	}
	if v := secrets.Values(); len(v) != 2 || v[0] != "svc-secret-0123456789" {
		t.Errorf("secrets = %d values, want the client secret and the access token", len(v))
	}
}

// TestRefresh refreshes a token that expires within the margin before it
// is used, and a token the server refuses (401) before signing in again,
// with the resource in each refresh request.
func TestRefresh(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	as.TTL = refreshMargin / 2 // every token is within the margin
	m := mcpauthtest.NewServer(t, as)
	var b mcpauthtest.Browser
	opts := Options{Store: &Store{Dir: t.TempDir() + "/oauth"}, Secrets: &redact.Set{}, Policy: allow(t, as), Interactive: true, Browse: b.Browse}
	h := newHandler(t, m, Config{}, opts)
	if _, err := call(t, h, m.Endpoint()); err != nil {
		t.Fatal(err)
	}
	grants, resources := as.TokenRequests()
	if len(grants) < 2 || grants[0] != "authorization_code" || grants[1] != "refresh_token" {
		t.Errorf("token requests = %q, want a code exchange, then refreshes", grants)
	}
	for i, r := range resources {
		if r != m.Endpoint() {
			t.Errorf("token request %d has resource %q", i, r)
		}
	}

	// A token the server refuses is refreshed, not signed in again.
	as.TTL = refreshMargin * 10
	h.mu.Lock()
	cur := h.rec.AccessToken
	h.mu.Unlock()
	m.Revoke(cur)
	if _, err := call(t, h, m.Endpoint()); err != nil {
		t.Fatal(err)
	}
	if b.Count() != 1 {
		t.Errorf("the browser was opened %d times, want once: a 401 refreshes first", b.Count())
	}
	h.mu.Lock()
	next := h.rec.AccessToken
	h.mu.Unlock()
	if next == cur {
		t.Error("the refused token is still in use")
	}
}

// TestStepUp: a call that needs a scope the token lacks gets 403
// insufficient_scope; the agent signs in again asking for the scopes it
// had and the one the challenge names, configured scopes or not, and the
// call goes through.
func TestStepUp(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	m := mcpauthtest.NewServer(t, as)
	m.CallScope = "tools:write"
	var b mcpauthtest.Browser
	// The configured scopes are those of the first sign-in.
	h := newHandler(t, m, Config{Scopes: []string{"tools:read"}}, Options{Secrets: &redact.Set{}, Policy: allow(t, as), Interactive: true, Browse: b.Browse})
	if got, err := call(t, h, m.Endpoint()); err != nil || got != "echo: hi" {
		t.Fatalf("call = %q, %v", got, err)
	}
	if b.Count() != 2 {
		t.Errorf("signed in %d times, want 2: once for the session, once for the call", b.Count())
	}
	h.mu.Lock()
	scopes := h.rec.Scopes
	h.mu.Unlock()
	if diff := cmp.Diff([]string{"tools:read", "tools:write"}, scopes); diff != "" {
		t.Errorf("scopes asked for (-want +got):\n%s", diff)
	}
}

// TestLegacyServer signs in to a server of the 2025-03-26 revision,
// which is its own authorization server at the default endpoints.
func TestLegacyServer(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	m := mcpauthtest.NewLegacyServer(t, as)
	var b mcpauthtest.Browser
	h := newHandler(t, m, Config{}, Options{Secrets: &redact.Set{}, Interactive: true, Browse: b.Browse})
	if got, err := call(t, h, m.Endpoint()); err != nil || got != "echo: hi" {
		t.Fatalf("call = %q, %v", got, err)
	}
	h.mu.Lock()
	rec := *h.rec
	h.mu.Unlock()
	u, _ := url.Parse(m.Endpoint())
	if want := "http://" + u.Host; rec.Issuer != want || rec.TokenEndpoint != want+"/token" {
		t.Errorf("issuer %s, token endpoint %s; want the server's origin", rec.Issuer, rec.TokenEndpoint)
	}
}

// TestNoTerminal refuses to sign in without a person or client
// credentials, and says what to do.
func TestNoTerminal(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	m := mcpauthtest.NewServer(t, as)
	h := newHandler(t, m, Config{}, Options{Policy: allow(t, as)})
	_, err := call(t, h, m.Endpoint())
	if !errors.Is(err, ErrSignInNeeded) {
		t.Errorf("err = %v, want ErrSignInNeeded", err)
	}
}

// TestDenials are a malicious server's tricks, each refused.
func TestDenials(t *testing.T) {
	tests := []struct {
		name string
		prm  func(m map[string]any, other *mcpauthtest.AuthServer)
		meta func(m map[string]any, other string)
		// noAllow leaves the authorization server's address to the
		// default policy.
		noAllow bool
		cfg     Config
		want    string
	}{{
		name:    "authorization server on a local address not allowed",
		noAllow: true,
		want:    "loopback address; local and private addresses are blocked",
	}, {
		name: "authorization server on plain HTTP off loopback",
		prm: func(m map[string]any, _ *mcpauthtest.AuthServer) {
			m["authorization_servers"] = []string{"http://auth.example.com"}
		},
		want: "does not use HTTPS",
	}, {
		name: "authorization server at a private address",
		prm: func(m map[string]any, _ *mcpauthtest.AuthServer) {
			m["authorization_servers"] = []string{"https://10.1.2.3"}
		},
		want: "non-public address",
	}, {
		name: "cloud metadata address",
		prm: func(m map[string]any, _ *mcpauthtest.AuthServer) {
			m["authorization_servers"] = []string{"https://169.254.169.254/"}
		},
		want: "non-public address",
	}, {
		name: "authorization server named by a host name that resolves to a local address",
		prm: func(m map[string]any, other *mcpauthtest.AuthServer) {
			u, _ := url.Parse(other.URL())
			m["authorization_servers"] = []string{"http://localhost:" + u.Port()}
		},
		want: "localhost (", // then the address it resolved to, refused
	}, {
		name: "metadata names another issuer",
		meta: func(m map[string]any, _ string) { m["issuer"] = "https://auth.example.com" },
		want: "does not match issuer URL",
	}, {
		name: "token endpoint on another host",
		meta: func(m map[string]any, other string) { m["token_endpoint"] = other + "/token" },
		want: "is not on the issuer's host",
	}, {
		name: "registration endpoint on another host",
		meta: func(m map[string]any, other string) { m["registration_endpoint"] = other + "/register" },
		want: "registration endpoint",
	}, {
		name: "metadata for another resource",
		prm:  func(m map[string]any, _ *mcpauthtest.AuthServer) { m["resource"] = "https://other.example.com/mcp" },
		want: "got metadata resource",
	}, {
		name: "authorization server other than the configured issuer",
		cfg:  Config{Issuer: "https://auth.example.com"},
		want: "not the configured issuer",
	}, {
		name: "no PKCE",
		meta: func(m map[string]any, _ string) { m["code_challenge_methods_supported"] = []string{"plain"} },
		want: "S256",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := mcpauthtest.NewAuthServer(t)
			other := mcpauthtest.NewAuthServer(t) // another host (port) that must not be reached
			m := mcpauthtest.NewServer(t, as)
			if tt.prm != nil {
				m.PRM = func(meta map[string]any) { tt.prm(meta, other) }
			}
			if tt.meta != nil {
				as.Meta = func(meta map[string]any) { tt.meta(meta, other.URL()) }
			}
			var b mcpauthtest.Browser
			opts := Options{Secrets: &redact.Set{}, Interactive: true, Browse: b.Browse}
			if !tt.noAllow {
				opts.Policy = allow(t, as)
			}
			_, err := call(t, newHandler(t, m, tt.cfg, opts), m.Endpoint())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one that says %q", err, tt.want)
			}
			if b.Count() != 0 {
				t.Error("the browser was opened")
			}
			if grants, _ := other.TokenRequests(); len(grants) != 0 {
				t.Errorf("the other host got token requests: %q", grants)
			}
			if grants, _ := as.TokenRequests(); len(grants) != 0 {
				t.Errorf("token requests were made: %q", grants)
			}
		})
	}
}

// TestIssuerInResponse refuses an authorization response whose iss names
// another issuer (RFC 9207), or lacks one its server says it sends.
func TestIssuerInResponse(t *testing.T) {
	for _, tt := range []struct {
		iss       string
		supported bool
		ok        bool
	}{{"", false, true}, {"ISSUER", true, true}, {"", true, false}, {"https://evil.example.com", false, false}, {"https://evil.example.com", true, false}} {
		asm := &oauthex.AuthServerMeta{Issuer: "https://auth.example.com", AuthorizationResponseIssParameterSupported: tt.supported}
		iss := strings.ReplaceAll(tt.iss, "ISSUER", asm.Issuer)
		if err := checkIss(iss, asm); (err == nil) != tt.ok {
			t.Errorf("checkIss(%q, supported %v) = %v, want ok %v", iss, tt.supported, err, tt.ok)
		}
	}
}

// TestTokensStayWithTheirServer: a token for server A is never sent to
// server B, which shares A's authorization server and token directory.
func TestTokensStayWithTheirServer(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	a, bsrv := mcpauthtest.NewServer(t, as), mcpauthtest.NewServer(t, as)
	dir := t.TempDir() + "/oauth"
	var br mcpauthtest.Browser
	opts := Options{Store: &Store{Dir: dir}, Secrets: &redact.Set{}, Policy: allow(t, as), Interactive: true, Browse: br.Browse}
	if _, err := call(t, newHandler(t, a, Config{}, opts), a.Endpoint()); err != nil {
		t.Fatal(err)
	}
	rec, err := (&Store{Dir: dir}).Load(a.Endpoint())
	if err != nil || rec == nil {
		t.Fatal(rec, err)
	}
	// B without a terminal: its first request carries no token, and A's
	// token never reaches it.
	hb, err := New("b", bsrv.Endpoint(), Config{}, Options{Store: &Store{Dir: dir}, Policy: allow(t, as)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, hb, bsrv.Endpoint()); !errors.Is(err, ErrSignInNeeded) {
		t.Errorf("B: err = %v, want ErrSignInNeeded", err)
	}
	for _, h := range bsrv.Headers() {
		if strings.Contains(h, rec.AccessToken) {
			t.Fatal("A's token was sent to B")
		}
	}
	// A's record copied under B's name is refused.
	st := &Store{Dir: dir}
	data, err := os.ReadFile(st.path(a.Endpoint()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(st.path(bsrv.Endpoint()), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(bsrv.Endpoint()); err == nil || !strings.Contains(err.Error(), "another server") {
		t.Errorf("Load of a record for another server = %v", err)
	}
}

// TestStoreRefusals: a token file or directory others can read, a
// symbolic link, and another user's file are refused.
func TestStoreRefusals(t *testing.T) {
	const ep = "https://mcp.example.com/mcp"
	rec := &Record{Endpoint: ep, AccessToken: "at-0123456789", Issuer: "https://auth.example.com"}
	t.Run("world-readable file", func(t *testing.T) {
		st := &Store{Dir: t.TempDir() + "/oauth"}
		if err := st.Save(rec); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(st.path(ep), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Load(ep); err == nil || !strings.Contains(err.Error(), "open to other users") {
			t.Errorf("Load = %v", err)
		}
	})
	t.Run("group-readable directory", func(t *testing.T) {
		st := &Store{Dir: t.TempDir() + "/oauth"}
		if err := st.Save(rec); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(st.Dir, 0o750); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Load(ep); err == nil || !strings.Contains(err.Error(), "chmod 700") {
			t.Errorf("Load = %v", err)
		}
		if err := st.Save(rec); err == nil {
			t.Error("Save into a group-readable directory")
		}
	})
	t.Run("symbolic link file", func(t *testing.T) {
		st := &Store{Dir: t.TempDir() + "/oauth"}
		if err := st.Save(rec); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(t.TempDir(), "elsewhere.json")
		if err := os.Rename(st.path(ep), target); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, st.path(ep)); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Load(ep); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Load = %v", err)
		}
		if err := st.Save(rec); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Save = %v", err)
		}
	})
	t.Run("symbolic link directory", func(t *testing.T) {
		real := t.TempDir()
		link := filepath.Join(t.TempDir(), "oauth")
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		st := &Store{Dir: link}
		if err := st.Save(rec); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Save = %v", err)
		}
	})
	t.Run("handler reports the refusal", func(t *testing.T) {
		st := &Store{Dir: t.TempDir() + "/oauth"}
		if err := st.Save(rec); err != nil {
			t.Fatal(err)
		}
		os.Chmod(st.path(ep), 0o604)
		h, err := New("docs", ep, Config{}, Options{Store: st})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.TokenSource(t.Context()); err == nil || !strings.Contains(err.Error(), "open to other users") {
			t.Errorf("TokenSource = %v", err)
		}
	})
}

// TestCallback: the loopback listener takes the one redirect to
// /callback whose state is right, once; other paths, methods, a wrong
// state and a second redirect are refused, and a wrong state does not end
// the wait.
func TestCallback(t *testing.T) {
	cb, err := listenCallback(0)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.close()
	u, _ := url.Parse(cb.redirect)
	if host, _, _ := net.SplitHostPort(u.Host); host != "127.0.0.1" || u.Path != "/callback" {
		t.Fatalf("redirect URI %s", cb.redirect)
	}
	get := func(path string) int {
		t.Helper()
		resp, err := http.Get("http://" + u.Host + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := get("/callback?code=c&state=s"); got != 404 {
		t.Errorf("before the state is set: %d, want 404", got)
	}
	cb.expect("right-state")
	for _, tt := range []struct {
		path string
		want int
	}{
		{"/", 404},
		{"/callback/x?code=c&state=right-state", 404},
		{"/other?code=c&state=right-state", 404},
		{"/callback?code=stolen&state=wrong-state", 400},
		{"/callback?code=stolen", 400},
	} {
		if got := get(tt.path); got != tt.want {
			t.Errorf("GET %s = %d, want %d", tt.path, got, tt.want)
		}
	}
	resp, err := http.Post(cb.redirect+"?code=c&state=right-state", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("POST = %d, want 404", resp.StatusCode)
	}
	if got := get("/callback?code=good&state=right-state&iss=x"); got != 200 {
		t.Errorf("the redirect = %d, want 200", got)
	}
	if got := get("/callback?code=again&state=right-state"); got != 404 {
		t.Errorf("a second redirect = %d, want 404", got)
	}
	res, err := cb.wait(t.Context())
	if err != nil || res.code != "good" || res.iss != "x" {
		t.Errorf("wait = %+v, %v", res, err)
	}
}

// TestCallbackCancelled: the wait ends with its context.
func TestCallbackCancelled(t *testing.T) {
	cb, err := listenCallback(0)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.close()
	cb.expect("s")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := cb.wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("wait = %v", err)
	}
}

// TestConfigCheck: the limits of a Config.
func TestConfigCheck(t *testing.T) {
	for _, tt := range []struct {
		cfg Config
		ok  bool
	}{
		{Config{}, true},
		{Config{Grant: GrantClientCredentials, ClientID: "a", ClientSecret: "b"}, true},
		{Config{Grant: GrantClientCredentials, ClientID: "a"}, false},
		{Config{Grant: "password"}, false},
		{Config{CallbackPort: 65535}, true},
		{Config{CallbackPort: 65536}, false},
		{Config{CallbackPort: -1}, false},
		{Config{ClientSecret: "s"}, false},
		{Config{Issuer: "auth.example.com"}, false},
		{Config{Issuer: "https://auth.example.com"}, true},
	} {
		if err := tt.cfg.Check(); (err == nil) != tt.ok {
			t.Errorf("%+v: Check = %v, want ok %v", tt.cfg, err, tt.ok)
		}
	}
}

// TestPromptDropsControls: what an authorization server says that reaches
// the prompt (the description of a refused refresh, quoted in the error)
// cannot drive the terminal.
func TestPromptDropsControls(t *testing.T) {
	var prompt bytes.Buffer
	h := &Handler{name: "docs", opts: Options{Prompt: &prompt}}
	h.printf("mcp server %q: the token could not be refreshed: %v", h.name, errors.New("oauth2: \"invalid_grant\" \"\x1b]52;c;Y3VybCBldmlsfHNo\x07\x1b[2K\u009b8mgone\""))
	if out := prompt.String(); strings.ContainsAny(out, "\x1b\x07\u009b") || !strings.Contains(out, "gone") {
		t.Errorf("prompt %q: want the text without its control characters", out)
	}
}

// TestSecretsFollowNoRedirect: the OAuth client follows no redirect of a
// request that is not a GET: a token endpoint that answered 307 or 308
// had the refresh token posted again, body and all, wherever it pointed
// (a 302 made it a GET, with the client's Basic credentials on a
// subdomain), past the check that the token endpoint is on the issuer's
// host. A GET, such as the metadata's, still follows.
func TestSecretsFollowNoRedirect(t *testing.T) {
	var mu sync.Mutex
	var elsewhere []string // what the other origin was sent
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		elsewhere = append(elsewhere, r.Method+" "+r.URL.Path+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	defer other.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, _ := strconv.Atoi(r.URL.Query().Get("status"))
		http.Redirect(w, r, other.URL+r.URL.Path, status)
	}))
	defer origin.Close()
	u, _ := url.Parse(other.URL)
	policy, err := egress.Parse(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	ou, _ := url.Parse(origin.URL)
	c := newClient(originOf(ou), nil, policy)

	type answer struct {
		Request string
		Err     bool
	}
	var got []answer
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		resp, err := c.PostForm(fmt.Sprintf("%s/token?status=%d", origin.URL, status), url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"rt-secret"}})
		if err == nil {
			resp.Body.Close()
		} else if !strings.Contains(err.Error(), "redirect of a POST to "+originOf(u)+" refused") {
			t.Errorf("a %d: %v, want the redirect refused", status, err)
		}
		got = append(got, answer{fmt.Sprintf("POST %d", status), err != nil})
	}
	resp, err := c.Get(origin.URL + "/.well-known/oauth-authorization-server?status=302")
	if err == nil {
		resp.Body.Close()
	}
	got = append(got, answer{"GET 302", err != nil})
	want := []answer{{"POST 307", true}, {"POST 308", true}, {"POST 302", true}, {"GET 302", false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("redirects (-want +got):\n%s", diff)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"GET /.well-known/oauth-authorization-server "}, elsewhere); diff != "" {
		t.Errorf("what the other origin was sent (-want +got):\n%s", diff)
	}
}
