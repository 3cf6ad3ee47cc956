// Package mcpauthtest holds an OAuth authorization server and an MCP
// server that needs its tokens, both on loopback (httptest), and a
// browser that signs in at once: the pieces to test an OAuth client of
// MCP servers end to end without a real provider.
package mcpauthtest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AuthServer is an authorization server on loopback: metadata, dynamic
// registration, an authorize endpoint that approves at once (the test
// plays the browser), and a token endpoint that checks PKCE, the
// redirect URI, the client and the resource, and issues ES256 JWTs.
type AuthServer struct {
	t   *testing.T
	srv *httptest.Server
	key *ecdsa.PrivateKey
	// Meta, when set, changes the metadata served.
	Meta func(m map[string]any)
	// TTL is the lifetime of the access tokens; an hour by default.
	TTL time.Duration

	mu        sync.Mutex
	clients   map[string]client // by id
	codes     map[string]issued
	refreshes map[string]issued // by refresh token
	grants    []string          // grant_type of each token request, in order
	resources []string          // resource of each token request
	n         int
}

type client struct {
	secret    string
	redirects []string
}

type issued struct {
	client, redirect, challenge, resource, scope string
}

// NewAuthServer starts an authorization server, closed when the test
// ends.
func NewAuthServer(t *testing.T) *AuthServer {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	as := &AuthServer{t: t, key: key, TTL: time.Hour, clients: map[string]client{}, codes: map[string]issued{}, refreshes: map[string]issued{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", as.metadata)
	mux.HandleFunc("POST /register", as.register)
	mux.HandleFunc("GET /authorize", as.authorize)
	mux.HandleFunc("POST /token", as.token)
	// Started after srv is set, so that the handlers see it.
	as.srv = httptest.NewUnstartedServer(mux)
	as.srv.Start()
	t.Cleanup(as.srv.Close)
	return as
}

// Preregister adds a client registered beforehand.
func (as *AuthServer) Preregister(id, secret string, redirects ...string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.clients[id] = client{secret: secret, redirects: redirects}
}

func (as *AuthServer) metadata(w http.ResponseWriter, r *http.Request) {
	m := map[string]any{
		"issuer":                                as.srv.URL,
		"authorization_endpoint":                as.srv.URL + "/authorize",
		"token_endpoint":                        as.srv.URL + "/token",
		"registration_endpoint":                 as.srv.URL + "/register",
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none", "client_secret_post"},
		"response_types_supported":              []string{"code"},
	}
	if as.Meta != nil {
		as.Meta(m)
	}
	writeJSON(w, http.StatusOK, m)
}

func (as *AuthServer) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	as.mu.Lock()
	as.n++
	id := fmt.Sprintf("dyn-%d", as.n)
	as.clients[id] = client{redirects: req.RedirectURIs}
	as.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "redirect_uris": req.RedirectURIs, "token_endpoint_auth_method": "none"})
}

// authorize approves at once and redirects with a code, or with an error
// for a request that is not right.
func (as *AuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	defer as.mu.Unlock()
	c, ok := as.clients[q.Get("client_id")]
	if !ok || !slices.Contains(c.redirects, q.Get("redirect_uri")) {
		http.Error(w, "unknown client or redirect URI", http.StatusBadRequest)
		return
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") == "" {
		http.Error(w, "want response_type=code, PKCE S256 and a resource", http.StatusBadRequest)
		return
	}
	as.n++
	code := fmt.Sprintf("code-%d-%s", as.n, rand.Text())
	as.codes[code] = issued{client: q.Get("client_id"), redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge"), resource: q.Get("resource"), scope: q.Get("scope")}
	to, _ := url.Parse(q.Get("redirect_uri"))
	v := to.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	to.RawQuery = v.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}

func (as *AuthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	f := r.PostForm
	id, secret := f.Get("client_id"), f.Get("client_secret")
	if u, p, ok := r.BasicAuth(); ok {
		id, secret = u, p
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	as.grants = append(as.grants, f.Get("grant_type"))
	as.resources = append(as.resources, f.Get("resource"))
	c, ok := as.clients[id]
	if !ok || c.secret != secret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	bad := func() { writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"}) }
	var grant issued
	switch f.Get("grant_type") {
	case "authorization_code":
		g, ok := as.codes[f.Get("code")]
		delete(as.codes, f.Get("code")) // a code is used once
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if !ok || g.client != id || g.redirect != f.Get("redirect_uri") || g.resource != f.Get("resource") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			bad()
			return
		}
		grant = g
	case "refresh_token":
		g, ok := as.refreshes[f.Get("refresh_token")]
		delete(as.refreshes, f.Get("refresh_token")) // rotated
		if !ok || g.client != id || (f.Get("resource") != "" && f.Get("resource") != g.resource) {
			bad()
			return
		}
		grant = g
	case "client_credentials":
		grant = issued{client: id, resource: f.Get("resource"), scope: f.Get("scope")}
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	now := time.Now()
	access, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{
		"iss": as.srv.URL, "aud": grant.resource, "sub": id, "scope": grant.scope,
		"iat": now.Unix(), "exp": now.Add(as.TTL).Unix(), "jti": rand.Text(),
	}).SignedString(as.key)
	if err != nil {
		as.t.Error(err)
		return
	}
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(as.TTL / time.Second), "scope": grant.scope}
	if f.Get("grant_type") != "client_credentials" {
		rt := "rt-" + rand.Text()
		as.refreshes[rt] = grant
		out["refresh_token"] = rt
	}
	writeJSON(w, http.StatusOK, out)
}

// TokenRequests returns the grant types and resources of the token
// requests so far.
func (as *AuthServer) TokenRequests() (grants, resources []string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return slices.Clone(as.grants), slices.Clone(as.resources)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// Server is an MCP server over streamable HTTP (the Go SDK's handler) at
// /mcp behind a bearer check: a request without a valid JWT of the
// authorization server for this resource gets 401 with
// resource_metadata.
type Server struct {
	t   *testing.T
	srv *httptest.Server
	as  *AuthServer
	// PRM, when set, changes the protected resource metadata served.
	PRM func(m map[string]any)
	// legacy: no protected resource metadata, and the authorization
	// server's endpoints at /authorize, /token and /register of the
	// server itself (NewLegacyServer).
	legacy bool
	// CallScope, when set, is the scope a token needs to call a tool:
	// a call without it gets 403 insufficient_scope (step-up).
	CallScope string

	mu      sync.Mutex
	seen    []string        // the Authorization headers received
	revoked map[string]bool // access tokens refused from now on
}

// NewServer starts an MCP server whose tokens as issues, closed when the
// test ends. Its tools are echo and whoami, which answers with the
// token of the call.
func NewServer(t *testing.T, as *AuthServer) *Server {
	t.Helper()
	return newServer(t, as, false)
}

// NewLegacyServer starts an MCP server of the 2025-03-26 revision: it has
// no protected resource metadata, its 401 names none, and it serves as's
// authorization, token and registration endpoints at its own /authorize,
// /token and /register, without authorization server metadata.
func NewLegacyServer(t *testing.T, as *AuthServer) *Server {
	t.Helper()
	return newServer(t, as, true)
}

func newServer(t *testing.T, as *AuthServer, legacy bool) *Server {
	t.Helper()
	m := &Server{t: t, as: as, revoked: map[string]bool{}}
	srv := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "v0.0.1"}, nil)
	type textArgs struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Echo the text."},
		func(ctx context.Context, req *mcp.CallToolRequest, args textArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + args.Text}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "Say which token the call came with."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "called with " + strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer ")}}}, nil, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		if m.legacy {
			http.NotFound(w, r)
			return
		}
		meta := map[string]any{
			"resource":                 m.Endpoint(),
			"authorization_servers":    []string{as.srv.URL},
			"scopes_supported":         []string{"tools:read"},
			"bearer_methods_supported": []string{"header"},
		}
		if m.PRM != nil {
			m.PRM(meta)
		}
		writeJSON(w, http.StatusOK, meta)
	})
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scopes, ok := m.authorized(r)
		if !ok {
			if m.legacy {
				w.Header().Set("WWW-Authenticate", "Bearer")
			} else {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, m.srv.URL))
			}
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if m.CallScope != "" && !slices.Contains(scopes, m.CallScope) && isCall(r) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`,
				strings.Join(append(scopes, m.CallScope), " "), m.srv.URL))
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	}))
	if legacy {
		m.legacy = true
		mux.HandleFunc("GET /authorize", as.authorize)
		mux.HandleFunc("POST /token", as.token)
		mux.HandleFunc("POST /register", as.register)
	}
	// Started after srv is set, so that the handlers see it.
	m.srv = httptest.NewUnstartedServer(mux)
	m.srv.Start()
	t.Cleanup(m.srv.Close)
	return m
}

// Endpoint is the URL of the MCP endpoint.
func (m *Server) Endpoint() string { return m.srv.URL + "/mcp" }

// URL is the authorization server's URL, its issuer.
func (as *AuthServer) URL() string { return as.srv.URL }

// authorized checks the bearer token: an ES256 JWT of the authorization
// server, for this server, not expired, not revoked.
func (m *Server) authorized(r *http.Request) (scopes []string, ok bool) {
	h := r.Header.Get("Authorization")
	m.mu.Lock()
	m.seen = append(m.seen, h)
	revoked := m.revoked[strings.TrimPrefix(h, "Bearer ")]
	m.mu.Unlock()
	raw, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || revoked {
		return nil, false
	}
	var claims jwt.MapClaims
	_, err := jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return &m.as.key.PublicKey, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer(m.as.srv.URL), jwt.WithAudience(m.Endpoint()), jwt.WithExpirationRequired())
	if err != nil {
		return nil, false
	}
	s, _ := claims["scope"].(string)
	return strings.Fields(s), true
}

// isCall reports whether the request is a tools/call, leaving its body
// to be read again.
func isCall(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(b))
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(b, &msg) == nil && msg.Method == "tools/call"
}

// Revoke refuses the token from now on.
func (m *Server) Revoke(token string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.revoked[token] = true
}

// Headers returns the Authorization headers received so far.
func (m *Server) Headers() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seen)
}

// Browser plays the person at the browser: it opens the authorization URL
// and follows the redirects to the agent's loopback listener. It counts
// its visits.
type Browser struct {
	mu     sync.Mutex
	visits []string
	status int // of the last page
}

// Browse opens the URL u and follows its redirects.
func (b *Browser) Browse(ctx context.Context, u string) error {
	b.mu.Lock()
	b.visits = append(b.visits, u)
	b.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	b.mu.Lock()
	b.status = resp.StatusCode
	b.mu.Unlock()
	return nil
}

// Count is how many URLs the browser opened.
func (b *Browser) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.visits)
}
