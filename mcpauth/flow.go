package mcpauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/toolreg/toolreg/egress"
)

// challenge is what a Bearer WWW-Authenticate challenge says.
type challenge struct {
	metadata string   // resource_metadata
	scopes   []string // scope
	err      string   // error
}

// parseChallenge reads the Bearer challenge of WWW-Authenticate values; a
// header that does not parse says nothing.
func parseChallenge(values []string) challenge {
	cs, err := oauthex.ParseWWWAuthenticate(values)
	if err != nil {
		return challenge{}
	}
	var c challenge
	for _, x := range cs {
		if x.Scheme != "bearer" {
			continue
		}
		c.metadata = x.Params["resource_metadata"]
		c.scopes = strings.Fields(x.Params["scope"])
		c.err = x.Params["error"]
		break
	}
	return c
}

// signIn gets a token for the server from the start: metadata, client,
// grant. granted are the scopes of the token it replaces, kept when the
// challenge asks for more (step-up).
func (h *Handler) signIn(ctx context.Context, ch challenge, granted []string) (*Record, error) {
	prm, err := h.resourceMetadata(ctx, ch.metadata)
	if err != nil {
		return nil, err
	}
	issuer, err := h.pickIssuer(prm)
	if err != nil {
		return nil, err
	}
	asm, err := h.authServerMetadata(ctx, issuer)
	if err != nil {
		return nil, err
	}
	if err := h.checkTokenEndpoint(asm.Issuer, asm.TokenEndpoint); err != nil {
		return nil, err
	}
	scopes := h.cfg.Scopes
	if len(scopes) == 0 {
		scopes = ch.scopes
		if len(scopes) == 0 {
			scopes = prm.ScopesSupported
		}
	}
	if ch.err == "insufficient_scope" {
		granted = append(slices.Clone(granted), ch.scopes...) // step-up
	}
	for _, s := range granted {
		if !slices.Contains(scopes, s) {
			scopes = append(slices.Clone(scopes), s)
		}
	}
	rec := &Record{
		Endpoint:      h.endpoint,
		Resource:      prm.Resource,
		Issuer:        asm.Issuer,
		TokenEndpoint: asm.TokenEndpoint,
		Scopes:        scopes,
		ClientID:      h.cfg.ClientID,
		Grant:         GrantAuthorizationCode,
	}
	if h.cfg.Grant == GrantClientCredentials {
		rec.Grant = GrantClientCredentials
		rec.AuthStyle = int(authStyle(asm.TokenEndpointAuthMethodsSupported, true))
		tok, err := h.tokenRequest(ctx, rec.ClientID, h.cfg.ClientSecret, rec.TokenEndpoint, oauth2.AuthStyle(rec.AuthStyle), scopes, url.Values{"resource": {rec.Resource}})
		if err != nil {
			return nil, err
		}
		rec.AccessToken, rec.TokenType, rec.RefreshToken, rec.Expiry = tok.AccessToken, tok.TokenType, tok.RefreshToken, tok.Expiry
		return rec, nil
	}
	if !h.opts.Interactive {
		return nil, ErrSignInNeeded
	}
	if !slices.Contains(asm.CodeChallengeMethodsSupported, "S256") {
		return nil, fmt.Errorf("authorization server %s does not support PKCE with S256", asm.Issuer)
	}
	return h.codeFlow(ctx, asm, rec)
}

// resourceMetadata returns the server's protected resource metadata
// (RFC 9728): at the challenge's resource_metadata URL, else at the
// well-known URL of the endpoint's path, else at the root. Its resource
// must be the endpoint (or, at the root, its origin). A server that has
// none is its own authorization server (the 2025-03-26 revision).
func (h *Handler) resourceMetadata(ctx context.Context, fromChallenge string) (*oauthex.ProtectedResourceMetadata, error) {
	ru, err := url.Parse(h.endpoint)
	if err != nil {
		return nil, err
	}
	type try struct{ url, resource string }
	var tries []try
	if fromChallenge != "" {
		tries = append(tries, try{fromChallenge, h.endpoint})
	}
	mu := *ru
	mu.RawQuery, mu.Fragment = "", ""
	mu.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(ru.Path, "/")
	tries = append(tries, try{mu.String(), h.endpoint})
	mu.Path = "/.well-known/oauth-protected-resource"
	root := *ru
	root.Path, root.RawQuery, root.Fragment = "", "", ""
	tries = append(tries, try{mu.String(), root.String()})
	var errs []error
	for _, t := range tries {
		ctx, cancel := context.WithTimeout(ctx, requestTimeout)
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, t.url, t.resource, h.client)
		cancel()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("the protected resource metadata of %s names no authorization server", h.endpoint)
		}
		return prm, nil
	}
	if fromChallenge != "" {
		// The server said where its metadata is, and it is not usable
		// there: that is not a server of the older revision.
		return nil, fmt.Errorf("protected resource metadata: %w", errors.Join(errs...))
	}
	return &oauthex.ProtectedResourceMetadata{Resource: h.endpoint, AuthorizationServers: []string{root.String()}}, nil
}

// pickIssuer returns the authorization server to use: the configured
// issuer, which the metadata must name, or the first one it names.
func (h *Handler) pickIssuer(prm *oauthex.ProtectedResourceMetadata) (string, error) {
	if h.cfg.Issuer == "" {
		return prm.AuthorizationServers[0], nil
	}
	for _, s := range prm.AuthorizationServers {
		if issuersEqual(s, h.cfg.Issuer) {
			return s, nil
		}
	}
	return "", fmt.Errorf("the server names authorization server %s, not the configured issuer %s; refused", strings.Join(prm.AuthorizationServers, ", "), h.cfg.Issuer)
}

// issuersEqual compares two issuer identifiers, a trailing slash aside.
func issuersEqual(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// authServerMetadata returns the metadata of the authorization server
// issuer (RFC 8414, then OpenID discovery), which must name issuer as its
// issuer and use HTTPS (HTTP on loopback) for its endpoints. An issuer on
// the MCP server's own origin without metadata has the default endpoints
// of the 2025-03-26 revision.
func (h *Handler) authServerMetadata(ctx context.Context, issuer string) (*oauthex.AuthServerMeta, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, h.client)
	if err != nil {
		return nil, fmt.Errorf("authorization server metadata of %s: %w", issuer, err)
	}
	if asm != nil {
		return asm, nil
	}
	if !sameOrigin(issuer, h.origin) {
		return nil, fmt.Errorf("authorization server %s publishes no metadata", issuer)
	}
	base := strings.TrimSuffix(issuer, "/")
	return &oauthex.AuthServerMeta{
		Issuer:                        issuer,
		AuthorizationEndpoint:         base + "/authorize",
		TokenEndpoint:                 base + "/token",
		RegistrationEndpoint:          base + "/register",
		CodeChallengeMethodsSupported: []string{"S256"},
	}, nil
}

// checkTokenEndpoint refuses a token endpoint that is not on the
// issuer's origin, unless the operator configured the issuer: the client
// secret and the refresh token are posted there.
func (h *Handler) checkTokenEndpoint(issuer, endpoint string) error {
	iu, err := absURL(issuer)
	if err != nil {
		return fmt.Errorf("issuer: %w", err)
	}
	if _, err := absURL(endpoint); err != nil {
		return fmt.Errorf("token endpoint: %w", err)
	}
	if h.cfg.Issuer != "" && issuersEqual(issuer, h.cfg.Issuer) {
		return nil
	}
	if !sameOrigin(endpoint, originOf(iu)) {
		return fmt.Errorf("the token endpoint %s is not on the issuer's host %s; refused (configure the issuer to trust it)", endpoint, iu.Host)
	}
	return nil
}

// authStyle is how the client authenticates at the token endpoint,
// given the methods the server supports: client_secret_post preferred, as
// OAuth 2.1 does; in the body for a public client.
func authStyle(supported []string, confidential bool) oauth2.AuthStyle {
	if !confidential {
		return oauth2.AuthStyleInParams
	}
	switch {
	case slices.Contains(supported, "client_secret_post"):
		return oauth2.AuthStyleInParams
	case slices.Contains(supported, "client_secret_basic"), len(supported) == 0:
		return oauth2.AuthStyleInHeader // RFC 8414's default
	}
	return oauth2.AuthStyleInParams
}

// tokenRequest posts a token request with the client's authentication:
// the client credentials grant, or the grant params names (grant_type
// overrides it), with params.
func (h *Handler) tokenRequest(ctx context.Context, clientID, secret, tokenURL string, style oauth2.AuthStyle, scopes []string, params url.Values) (*oauth2.Token, error) {
	cc := clientcredentials.Config{ClientID: clientID, ClientSecret: secret, TokenURL: tokenURL, Scopes: scopes, EndpointParams: params, AuthStyle: style}
	tok, err := cc.Token(context.WithValue(ctx, oauth2.HTTPClient, h.client))
	if err != nil {
		return nil, fmt.Errorf("token request: %w", err)
	}
	return tok, nil
}

// register registers the client dynamically (RFC 7591) as a public
// client whose one redirect URI is redirect.
func (h *Handler) register(ctx context.Context, asm *oauthex.AuthServerMeta, redirect string) (id, secret string, err error) {
	if asm.RegistrationEndpoint == "" {
		return "", "", fmt.Errorf("authorization server %s offers no dynamic client registration: configure a client id", asm.Issuer)
	}
	if !sameOrigin(asm.RegistrationEndpoint, mustOrigin(asm.Issuer)) && !(h.cfg.Issuer != "" && issuersEqual(asm.Issuer, h.cfg.Issuer)) {
		return "", "", fmt.Errorf("the registration endpoint %s is not on the issuer's host; refused", asm.RegistrationEndpoint)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	name := h.opts.ClientName
	if name == "" {
		name = "toolreg agent"
	}
	resp, err := oauthex.RegisterClient(ctx, asm.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		RedirectURIs:            []string{redirect},
		TokenEndpointAuthMethod: "none",
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		ClientName:              name,
		ApplicationType:         "native",
	}, h.client)
	if err != nil {
		return "", "", fmt.Errorf("dynamic client registration: %w", err)
	}
	return resp.ClientID, resp.ClientSecret, nil
}

// mustOrigin returns the origin of a URL already checked, or "".
func mustOrigin(s string) string {
	u, err := absURL(s)
	if err != nil {
		return ""
	}
	return originOf(u)
}

// codeFlow signs in with the authorization code grant and PKCE: it
// listens for the redirect on loopback, registers the client if need be,
// shows the authorization URL, waits for the code, checks the state and
// the issuer, and exchanges the code.
func (h *Handler) codeFlow(ctx context.Context, asm *oauthex.AuthServerMeta, rec *Record) (*Record, error) {
	cb, err := listenCallback(h.cfg.CallbackPort)
	if err != nil {
		return nil, err
	}
	defer cb.close()
	secret := h.cfg.ClientSecret
	if rec.ClientID == "" {
		if rec.ClientID, rec.ClientSecret, err = h.register(ctx, asm, cb.redirect); err != nil {
			return nil, err
		}
		secret = rec.ClientSecret
		h.opts.Secrets.Add(secret)
	}
	rec.AuthStyle = int(authStyle(asm.TokenEndpointAuthMethodsSupported, secret != ""))
	cfg := &oauth2.Config{
		ClientID:     rec.ClientID,
		ClientSecret: secret,
		Endpoint:     oauth2.Endpoint{AuthURL: asm.AuthorizationEndpoint, TokenURL: asm.TokenEndpoint, AuthStyle: oauth2.AuthStyle(rec.AuthStyle)},
		RedirectURL:  cb.redirect,
		Scopes:       rec.Scopes,
	}
	verifier := oauth2.GenerateVerifier()
	state := rand.Text()
	cb.expect(state)
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", rec.Resource))
	timeout := h.opts.SignInTimeout
	if timeout <= 0 {
		timeout = DefaultSignInTimeout
	}
	h.printf("mcp server %q needs you to sign in at %s; open this URL in a browser (waiting %s):\n  %s", h.name, asm.Issuer, timeout, authURL)
	wctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("no sign-in within %s", timeout))
	defer cancel()
	if h.opts.Browse != nil {
		go func() {
			if err := h.opts.Browse(wctx, authURL); err != nil {
				h.printf("mcp server %q: no browser opened: %v", h.name, err)
			}
		}()
	}
	res, err := cb.wait(wctx)
	if err != nil {
		if wctx.Err() != nil {
			err = context.Cause(wctx)
		}
		return nil, fmt.Errorf("sign-in: %w", err)
	}
	if err := checkIss(res.iss, asm); err != nil {
		return nil, err
	}
	xctx, cancel2 := context.WithTimeout(ctx, requestTimeout)
	defer cancel2()
	tok, err := cfg.Exchange(context.WithValue(xctx, oauth2.HTTPClient, h.client), res.code,
		oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", rec.Resource))
	if err != nil {
		return nil, fmt.Errorf("token exchange: %w", err)
	}
	rec.AccessToken, rec.TokenType, rec.RefreshToken, rec.Expiry = tok.AccessToken, tok.TokenType, tok.RefreshToken, tok.Expiry
	h.printf("mcp server %q: signed in", h.name)
	return rec, nil
}

// checkIss checks the iss of the authorization response (RFC 9207): it
// must be the issuer when present, and be present when the server says it
// sends one.
func checkIss(iss string, asm *oauthex.AuthServerMeta) error {
	switch {
	case iss == "" && asm.AuthorizationResponseIssParameterSupported:
		return errors.New("the authorization response has no iss, which its server says it sends; refused")
	case iss != "" && !issuersEqual(iss, asm.Issuer):
		return fmt.Errorf("the authorization response comes from issuer %q, not %q; refused", iss, asm.Issuer)
	}
	return nil
}

// newClient returns the client of the OAuth requests: those to the MCP
// server's origin go through direct, the configured endpoint; all others
// are dialled under policy. A redirect from HTTPS to HTTP is refused, and
// so is any redirect of a request that is not a GET or HEAD: a token
// request or a registration posts secrets (a refresh token, a code and
// its verifier, the client's secret) that a 307 or 308 sends again, body
// and all, and a 302 keeps the client's Basic credentials on a subdomain,
// to an endpoint no check of the issuer's host has seen.
func newClient(origin string, direct http.RoundTripper, policy *egress.Policy) *http.Client {
	if direct == nil {
		direct = http.DefaultTransport
	}
	judged := (&egress.Dialer{Policy: policy}).Transport()
	return &http.Client{
		Transport: &splitTransport{origin: origin, direct: direct, judged: judged},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
				return fmt.Errorf("redirect of a %s to %s refused: the request carries secrets meant for %s alone", m, originOf(req.URL), originOf(via[0].URL))
			}
			if via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect from https to %s refused", req.URL.Scheme)
			}
			return nil
		},
	}
}

// splitTransport sends the requests for one origin directly and the
// others through a transport that judges their destination.
type splitTransport struct {
	origin         string
	direct, judged http.RoundTripper
}

func (t *splitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if originOf(r.URL) == t.origin {
		return t.direct.RoundTrip(r)
	}
	return t.judged.RoundTrip(r)
}
