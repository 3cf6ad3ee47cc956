// Package mcpauth is the OAuth 2.1 client of MCP servers mounted over
// streamable HTTP, as the MCP authorization spec (2025-06-18, 2025-11-25)
// describes it: a [Handler] is the auth.OAuthHandler of one server's
// mcp.StreamableClientTransport.
//
// When the server answers 401 with WWW-Authenticate: Bearer
// resource_metadata="…", the handler reads the protected resource
// metadata (RFC 9728) and the authorization server's metadata (RFC 8414 or
// OpenID discovery), registers itself (RFC 7591) unless a client id is
// configured, and gets a token for the server's resource (RFC 8707):
//
//   - with the authorization code grant and PKCE (S256) when a person is
//     there (Options.Interactive): it listens on 127.0.0.1, on an
//     ephemeral port (or Config.CallbackPort), for the one redirect to
//     /callback, prints the authorization URL, may open a browser, and
//     gives up after Options.SignInTimeout;
//   - with the client credentials grant when configured for unattended
//     use (Config.Grant is GrantClientCredentials).
//
// Tokens are kept in a [Store], by server URL, with the issuer, and
// refreshed a minute before they expire and when the server answers 401;
// every token and registered client secret is added to Options.Secrets,
// so the agent's output redacts them.
//
// What a malicious server can name is checked: the metadata URLs, the
// authorization server and its endpoints must use HTTPS (HTTP only on
// loopback), the authorization server's metadata must name the issuer it
// was fetched for, its token and registration endpoints must be on the
// issuer's origin unless the operator configured the issuer, every
// request to another host than the server's own is dialled under the
// egress policy (Options.Policy: no private or local address unless
// allowed), the state and the PKCE verifier bind the redirect to the
// request, and a token is only sent to the server it was issued for.
//
// The flows use the Go SDK's oauthex package for the metadata and the
// registration and golang.org/x/oauth2 for the authorization URL, PKCE
// and the token requests. The SDK's own AuthorizationCodeHandler is not
// used: it keeps no tokens between runs, does not refresh before running
// the whole flow again on a 401, and cannot check the token endpoint
// against the issuer.
package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/oauth2"

	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/redact"
)

// The grants a Config may name.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
)

// DefaultSignInTimeout is how long the authorization code flow waits for
// the browser's redirect when Options.SignInTimeout is zero.
const DefaultSignInTimeout = 5 * time.Minute

// refreshMargin is how long before its expiry a token is refreshed.
const refreshMargin = time.Minute

// requestTimeout bounds each request to the authorization server.
const requestTimeout = 30 * time.Second

// Config is the OAuth configuration of one server; the zero value
// registers a client dynamically and uses the authorization code grant.
type Config struct {
	// ClientID is a client registered with the authorization server
	// beforehand; without one, the client registers itself when the
	// server offers dynamic registration.
	ClientID string
	// ClientSecret is ClientID's secret, for a confidential client.
	ClientSecret string
	// Scopes are the scopes asked for; by default those of the server's
	// challenge, else those its metadata lists.
	Scopes []string
	// Issuer, when set, is the only authorization server accepted, and
	// its token endpoint may be on another host.
	Issuer string
	// Grant is GrantAuthorizationCode (when empty) or
	// GrantClientCredentials, which needs ClientID and ClientSecret.
	Grant string
	// CallbackPort is the loopback port of the redirect URI,
	// http://127.0.0.1:PORT/callback, for a client registered with a
	// fixed one; an ephemeral port when zero.
	CallbackPort int
}

// Check reports what is wrong with c.
func (c Config) Check() error {
	switch c.Grant {
	case "", GrantAuthorizationCode:
	case GrantClientCredentials:
		if c.ClientID == "" || c.ClientSecret == "" {
			return errors.New("the client credentials grant needs a client id and a client secret")
		}
	default:
		return fmt.Errorf("grant %q: want %s or %s", c.Grant, GrantAuthorizationCode, GrantClientCredentials)
	}
	if c.CallbackPort < 0 || c.CallbackPort > 65535 {
		return fmt.Errorf("callback port %d: want 1 to 65535, or 0 for any", c.CallbackPort)
	}
	if c.ClientSecret != "" && c.ClientID == "" {
		return errors.New("a client secret without a client id")
	}
	if c.Issuer != "" {
		if _, err := absURL(c.Issuer); err != nil {
			return fmt.Errorf("issuer: %w", err)
		}
	}
	return nil
}

// Options are how a Handler works in its environment.
type Options struct {
	// Store keeps the tokens between runs; nil keeps them in memory.
	Store *Store
	// Secrets receives every token and registered client secret, and the
	// configured client secret; nil adds them nowhere.
	Secrets *redact.Set
	// Policy judges every destination on another host than the MCP
	// server's own (the authorization server, metadata elsewhere); the
	// default refuses local and private addresses.
	Policy *egress.Policy
	// Transport reaches the MCP server's own origin, which the operator
	// configured; http.DefaultTransport when nil.
	Transport http.RoundTripper
	// Interactive says a person is there to sign in with a browser: the
	// authorization code flow is allowed.
	Interactive bool
	// Prompt receives the authorization URL and the outcome of a sign-in;
	// nothing is written when nil.
	Prompt io.Writer
	// Browse, when not nil, is called with the authorization URL after it
	// was printed, to open a browser; its error is printed, and the flow
	// waits all the same.
	Browse func(ctx context.Context, url string) error
	// SignInTimeout bounds the wait for the browser's redirect;
	// DefaultSignInTimeout when zero.
	SignInTimeout time.Duration
	// ClientName is the client_name of a dynamic registration.
	ClientName string
}

// Handler is the auth.OAuthHandler of one MCP server. Its methods are
// safe for concurrent use.
type Handler struct {
	name     string
	endpoint string // the server's URL, the key of its record
	origin   string // scheme://host:port of endpoint
	cfg      Config
	opts     Options
	client   *http.Client // for everything but the MCP requests

	// signing serialises sign-ins and forced refreshes.
	signing sync.Mutex

	mu     sync.Mutex
	rec    *Record // nil without a token
	broken error   // the store's refusal, reported at each use
}

var _ auth.OAuthHandler = (*Handler)(nil)

// New returns the handler of the MCP server name at endpoint, with the
// token the store keeps for it, if any.
func New(name, endpoint string, cfg Config, opts Options) (*Handler, error) {
	if err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	u, err := absURL(endpoint)
	if err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	h := &Handler{name: name, endpoint: endpoint, origin: originOf(u), cfg: cfg, opts: opts}
	h.client = newClient(h.origin, opts.Transport, opts.Policy)
	opts.Secrets.Add(cfg.ClientSecret)
	if opts.Store != nil {
		rec, err := opts.Store.Load(endpoint)
		switch {
		case err != nil:
			h.broken = err
		case rec != nil && (cfg.Issuer == "" || issuersEqual(rec.Issuer, cfg.Issuer)):
			h.rec = rec
			opts.Secrets.Add(rec.AccessToken, rec.RefreshToken, rec.ClientSecret)
		}
	}
	return h, nil
}

// absURL parses an absolute http or https URL.
func absURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http or https URL", s)
	}
	return u, nil
}

// originOf returns scheme://host:port, the port always written.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return strings.ToLower(u.Scheme + "://" + u.Hostname() + ":" + port)
}

// sameOrigin reports whether the URL s has origin.
func sameOrigin(s, origin string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Host != "" && originOf(u) == origin
}

// TokenSource returns the source of the server's access tokens. Its token
// is nil (no Authorization header) while there is none, so that the
// server's 401 starts the sign-in.
func (h *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.broken != nil {
		return nil, fmt.Errorf("oauth: %w", h.broken)
	}
	return &source{ctx: ctx, h: h}, nil
}

// source is the TokenSource of a Handler.
type source struct {
	ctx context.Context // the connection's
	h   *Handler
}

// Token returns the current access token, refreshed first when it
// expires within refreshMargin; nil when there is none or the refresh
// failed.
func (s *source) Token() (*oauth2.Token, error) {
	h := s.h
	h.mu.Lock()
	rec := h.rec
	h.mu.Unlock()
	if rec == nil || rec.AccessToken == "" {
		return nil, nil
	}
	if !rec.Expiry.IsZero() && time.Until(rec.Expiry) < refreshMargin {
		ctx, cancel := context.WithTimeout(s.ctx, requestTimeout)
		defer cancel()
		var err error
		if rec, err = h.refresh(ctx, rec); err != nil {
			h.printf("mcp server %q: the token could not be refreshed: %v", h.name, err)
			return nil, nil
		}
	}
	return &oauth2.Token{AccessToken: rec.AccessToken, TokenType: "Bearer", Expiry: rec.Expiry}, nil
}

// printf writes a line on the prompt, redacted, without the control
// characters that what the servers said (an error's description, an
// issuer) may hold: the prompt is a terminal.
func (h *Handler) printf(format string, args ...any) {
	if h.opts.Prompt == nil {
		return
	}
	fmt.Fprintln(h.opts.Prompt, clip.Printable(h.opts.Secrets.String(fmt.Sprintf(format, args...))))
}

// refresh replaces rec, if it is still the current record, with one whose
// token is fresh: by its refresh token, or a new client credentials
// grant. It returns the current record when another refresh came first.
func (h *Handler) refresh(ctx context.Context, rec *Record) (*Record, error) {
	h.signing.Lock()
	defer h.signing.Unlock()
	h.mu.Lock()
	cur := h.rec
	h.mu.Unlock()
	if cur != rec && cur != nil && cur.AccessToken != "" {
		return cur, nil
	}
	next, err := h.renew(ctx, rec)
	if err != nil {
		h.mu.Lock()
		if h.rec == rec {
			// Without a token the server answers 401, which signs in again.
			h.rec = nil
		}
		h.mu.Unlock()
		return nil, err
	}
	if err := h.keep(next); err != nil {
		return nil, err
	}
	return next, nil
}

// renew gets a fresh token for rec without a person.
func (h *Handler) renew(ctx context.Context, rec *Record) (*Record, error) {
	secret := rec.ClientSecret
	if rec.ClientID == h.cfg.ClientID && h.cfg.ClientSecret != "" {
		secret = h.cfg.ClientSecret
	}
	if err := h.checkTokenEndpoint(rec.Issuer, rec.TokenEndpoint); err != nil {
		return nil, err
	}
	params := url.Values{"resource": {rec.Resource}}
	var scopes []string
	switch {
	case rec.RefreshToken != "":
		// The client credentials Config posts any grant with the
		// client's authentication; its EndpointParams carry the refresh
		// token and the resource, which oauth2.Config's refresh leaves out.
		params.Set("grant_type", "refresh_token")
		params.Set("refresh_token", rec.RefreshToken)
	case rec.Grant == GrantClientCredentials:
		scopes = rec.Scopes
	default:
		return nil, errors.New("no refresh token")
	}
	tok, err := h.tokenRequest(ctx, rec.ClientID, secret, rec.TokenEndpoint, oauth2.AuthStyle(rec.AuthStyle), scopes, params)
	if err != nil {
		return nil, err
	}
	next := *rec
	next.AccessToken, next.TokenType, next.Expiry = tok.AccessToken, tok.TokenType, tok.Expiry
	if tok.RefreshToken != "" {
		next.RefreshToken = tok.RefreshToken // rotated
	}
	return &next, nil
}

// keep makes rec the current record, its secrets known, and saves it.
func (h *Handler) keep(rec *Record) error {
	h.opts.Secrets.Add(rec.AccessToken, rec.RefreshToken, rec.ClientSecret)
	h.mu.Lock()
	h.rec = rec
	h.mu.Unlock()
	if h.opts.Store != nil {
		if err := h.opts.Store.Save(rec); err != nil {
			// The token works for this run all the same.
			h.printf("mcp server %q: the token is not kept for the next run: %v", h.name, err)
		}
	}
	return nil
}

// Authorize is called by the transport when the server answered 401, or
// 403: it refreshes the token when the one refused is the current one
// and can be refreshed, and signs in otherwise. A 403 only signs in again
// for insufficient_scope (step-up authorization); others are left to the
// caller. It returns nil when the request should be sent again.
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	defer io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	h.mu.Lock()
	broken := h.broken
	h.mu.Unlock()
	if broken != nil {
		return fmt.Errorf("oauth: %w", broken)
	}
	ch := parseChallenge(resp.Header.Values("WWW-Authenticate"))
	if resp.StatusCode == http.StatusForbidden && ch.err != "insufficient_scope" {
		return nil
	}
	sent := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")

	h.signing.Lock()
	defer h.signing.Unlock()
	h.mu.Lock()
	cur := h.rec
	h.mu.Unlock()
	if cur != nil && cur.AccessToken != "" && cur.AccessToken != sent && resp.StatusCode == http.StatusUnauthorized {
		return nil // another request got a new token meanwhile
	}
	if cur != nil && resp.StatusCode == http.StatusUnauthorized && (cur.RefreshToken != "" || cur.Grant == GrantClientCredentials) {
		rctx, cancel := context.WithTimeout(ctx, requestTimeout)
		next, err := h.renew(rctx, cur)
		cancel()
		if err == nil {
			return h.keep(next)
		}
		h.printf("mcp server %q: the token could not be refreshed (%v); signing in again", h.name, err)
	}
	var granted []string
	if cur != nil {
		granted = cur.Scopes
	}
	rec, err := h.signIn(ctx, ch, granted)
	if err != nil {
		return fmt.Errorf("oauth: %w", redact.Error(err, h.opts.Secrets.Values()...))
	}
	return h.keep(rec)
}

// ErrSignInNeeded is the error of a server that needs a person to sign
// in when there is none (Options.Interactive is false) and no client
// credentials are configured.
var ErrSignInNeeded = errors.New("the server needs a sign-in in a browser, and this run has no terminal: run the agent once on a terminal (agent -mcp … tools), or configure client credentials")
