package toolmcp

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolreg/toolreg/tool"
)

// MetadataPath is where an OAuth resource server publishes its protected
// resource metadata (RFC 9728).
const MetadataPath = "/.well-known/oauth-protected-resource"

// ScopePrefix begins the scope that lets a token call tools with a
// capability: tools:exec for a tool that runs programs, tools:network for
// one that reaches the network, and so on (tool.Capability names).
const ScopePrefix = "tools:"

// OAuth makes a server over HTTP an OAuth 2.1 resource server, as the MCP
// authorization spec asks: it publishes its protected resource metadata at
// MetadataPath, answers a request without a valid token with 401 and a
// WWW-Authenticate header that points there, and accepts JWT access tokens
// signed by the authorization server (its JWKS, fetched and cached), issued
// by Issuer, for this server (audience Resource) and not expired. A token
// may call a tool only if it holds the scope ScopePrefix+capability of
// every capability of the tool; any valid token lists the tools.
type OAuth struct {
	// Issuer is the authorization server's issuer identifier (a URL):
	// tokens must carry it as iss.
	Issuer string
	// Resource is this server's canonical URL, such as
	// https://mcp.example.com/: tokens must name it in aud.
	Resource string
	// JWKSURL is where the issuer's signing keys are; when empty, it is
	// read from the issuer's metadata (RFC 8414, then OpenID discovery).
	JWKSURL string
	// HTTPClient fetches the metadata and keys; a client with a 10 s
	// timeout when nil.
	HTTPClient *http.Client
	// StaticToken, when not empty, is accepted too, with every scope:
	// the simple setup's bearer token beside OAuth.
	StaticToken string
	// Capabilities, when not nil, returns the capabilities of a served
	// tool (Registry.Lookup's Capabilities|Reaches): a call whose token
	// lacks a scope is then refused with HTTP 403 and a WWW-Authenticate
	// header naming the scopes (error="insufficient_scope"), from which a
	// client may ask for them. Without it the call is answered with an
	// isError result naming them.
	Capabilities func(tool string) (tool.Capability, bool)

	mu      sync.Mutex
	keys    map[string]any // by kid: *rsa.PublicKey or *ecdsa.PublicKey
	fetched time.Time
	// failed is when a fetch of the keys last failed, and failure why:
	// until jwksFailRetry has passed, the keys are not fetched again.
	failed  time.Time
	failure error
}

// jwksTTL is how long fetched keys are used before they are fetched again;
// an unknown key id fetches them again at most every jwksRetry. After a
// fetch that failed, the next waits jwksFailRetry: the requests meanwhile
// are refused with its error, so that neither an issuer that is down nor
// tokens made up by anyone send a request to the issuer each, one after
// another under the lock of the keys.
const (
	jwksTTL       = 10 * time.Minute
	jwksRetry     = 30 * time.Second
	jwksFailRetry = 5 * time.Second
)

// allCapabilities are the capabilities, each of which has a scope.
var allCapabilities = [...]tool.Capability{tool.Exec, tool.Network, tool.WriteFiles, tool.ReadFiles, tool.Env, tool.Unsafe}

// oauthScopes marks the TokenInfo of a token whose scopes are checked.
const oauthScopes = "toolreg.scopes"

// metadata returns the protected resource metadata.
func (a *OAuth) metadata() *oauthex.ProtectedResourceMetadata {
	scopes := []string{}
	for _, c := range allCapabilities {
		scopes = append(scopes, ScopePrefix+c.String())
	}
	return &oauthex.ProtectedResourceMetadata{
		Resource:               a.Resource,
		AuthorizationServers:   []string{a.Issuer},
		ScopesSupported:        scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "toolreg MCP server",
	}
}

// metadataURL is the URL of the metadata, beside the resource.
func (a *OAuth) metadataURL() string {
	return strings.TrimSuffix(a.Resource, "/") + MetadataPath
}

// require returns h behind the bearer token check.
func (a *OAuth) require(h http.Handler) http.Handler {
	return auth.RequireBearerToken(a.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: a.metadataURL()})(h)
}

// verify is the auth.TokenVerifier of a.
func (a *OAuth) verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if a.StaticToken != "" {
		got, want := sha256.Sum256([]byte(token)), sha256.Sum256([]byte(a.StaticToken))
		if subtle.ConstantTimeCompare(got[:], want[:]) == 1 {
			return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
		}
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		return a.key(ctx, kid)
	},
		jwt.WithValidMethods([]string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"}),
		jwt.WithIssuer(a.Issuer), jwt.WithAudience(a.Resource), jwt.WithExpirationRequired(), jwt.WithLeeway(30*time.Second))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	exp, _ := claims.GetExpirationTime()
	sub, _ := claims.GetSubject()
	return &auth.TokenInfo{
		Scopes:     tokenScopes(claims),
		Expiration: exp.Time,
		UserID:     sub,
		Extra:      map[string]any{oauthScopes: true},
	}, nil
}

// tokenScopes reads the scope claim (a space-separated string) or scp (a
// list, as Okta sends, or a space-separated string, as Microsoft Entra ID
// does).
func tokenScopes(claims jwt.MapClaims) []string {
	if s, ok := claims["scope"].(string); ok {
		return strings.Fields(s)
	}
	if s, ok := claims["scp"].(string); ok {
		return strings.Fields(s)
	}
	var out []string
	if l, ok := claims["scp"].([]any); ok {
		for _, v := range l {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// missingScopes returns the scopes the token of ctx lacks to call a tool
// with caps, or nil when it may (or when the request carried no OAuth
// token: a static token, stdio).
func missingScopes(ctx context.Context, caps tool.Capability) []string {
	ti := auth.TokenInfoFromContext(ctx)
	if ti == nil || ti.Extra[oauthScopes] != true {
		return nil
	}
	var missing []string
	for _, c := range allCapabilities {
		if caps&c != 0 && !slices.Contains(ti.Scopes, ScopePrefix+c.String()) {
			missing = append(missing, ScopePrefix+c.String())
		}
	}
	return missing
}

// forbid answers a call whose token lacks scopes with 403 and a
// challenge, and reports whether it did.
func (a *OAuth) forbid(w http.ResponseWriter, r *http.Request, name string, id json.RawMessage) bool {
	if a == nil || a.Capabilities == nil || name == "" {
		return false
	}
	caps, ok := a.Capabilities(name)
	if !ok {
		return false
	}
	missing := missingScopes(r.Context(), caps)
	if len(missing) == 0 {
		return false
	}
	ti := auth.TokenInfoFromContext(r.Context())
	want := append(slices.Clone(ti.Scopes), missing...)
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, strings.Join(want, " "), a.metadataURL()))
	writeRPCError(w, http.StatusForbidden, id, codeForbidden, fmt.Sprintf("the access token may not call %s: it lacks the scope %s", name, strings.Join(missing, " ")))
	return true
}

// codeForbidden is the JSON-RPC error of a call refused for its scopes.
const codeForbidden = -32001

// key returns the issuer's signing key kid, fetching the keys when they
// are stale or kid is unknown.
func (a *OAuth) key(ctx context.Context, kid string) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	k, ok := a.keys[kid]
	age := time.Since(a.fetched)
	if ok && age < jwksTTL {
		return k, nil
	}
	if a.keys == nil || age >= jwksTTL || !ok && age >= jwksRetry {
		if since := time.Since(a.failed); since < jwksFailRetry {
			if a.keys == nil || age >= jwksTTL {
				return nil, fmt.Errorf("the issuer's keys could not be fetched %s ago, tried again after %s: %w", since.Round(time.Millisecond), jwksFailRetry, a.failure)
			}
		} else {
			keys, err := a.fetchKeys(ctx)
			if err != nil {
				if ctx.Err() == nil { // not the request's own end
					a.failed, a.failure = time.Now(), err
				}
				return nil, err
			}
			a.keys, a.fetched = keys, time.Now()
		}
	}
	if k, ok := a.keys[kid]; ok {
		return k, nil
	}
	if kid == "" && len(a.keys) == 1 {
		for _, k := range a.keys {
			return k, nil
		}
	}
	return nil, fmt.Errorf("no signing key %q at the issuer", kid)
}

func (a *OAuth) client() *http.Client {
	if a.HTTPClient != nil {
		return a.HTTPClient
	}
	return &http.Client{Timeout: 10 * time.Second}
}

// fetchKeys reads the issuer's JWKS.
func (a *OAuth) fetchKeys(ctx context.Context) (map[string]any, error) {
	u := a.JWKSURL
	if u == "" {
		meta, err := auth.GetAuthServerMetadata(ctx, a.Issuer, a.client())
		if err != nil {
			return nil, fmt.Errorf("issuer metadata: %w", err)
		}
		if meta == nil || meta.JWKSURI == "" {
			return nil, fmt.Errorf("the issuer %s publishes no jwks_uri", a.Issuer)
		}
		u = meta.JWKSURI
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	resp, err := a.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("jwks %s: HTTP %d", u, resp.StatusCode)
	}
	var set struct {
		Keys []struct {
			Kty, Kid, Use, N, E, Crv, X, Y string
		} `json:"keys"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&set); err != nil {
		return nil, fmt.Errorf("jwks %s: %w", u, err)
	}
	keys := map[string]any{}
	for _, k := range set.Keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		switch k.Kty {
		case "RSA":
			n, err1 := base64.RawURLEncoding.DecodeString(k.N)
			e, err2 := base64.RawURLEncoding.DecodeString(k.E)
			if err := errors.Join(err1, err2); err != nil || len(e) > 4 {
				continue
			}
			keys[k.Kid] = &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		case "EC":
			var curve elliptic.Curve
			switch k.Crv {
			case "P-256":
				curve = elliptic.P256()
			case "P-384":
				curve = elliptic.P384()
			case "P-521":
				curve = elliptic.P521()
			default:
				continue
			}
			x, err1 := base64.RawURLEncoding.DecodeString(k.X)
			y, err2 := base64.RawURLEncoding.DecodeString(k.Y)
			if errors.Join(err1, err2) != nil {
				continue
			}
			// The uncompressed point: 4, then X and Y at the curve's width.
			size := (curve.Params().BitSize + 7) / 8
			if len(x) > size || len(y) > size {
				continue
			}
			point := make([]byte, 1+2*size)
			point[0] = 4
			copy(point[1+size-len(x):1+size], x)
			copy(point[1+2*size-len(y):], y)
			pub, err := ecdsa.ParseUncompressedPublicKey(curve, point)
			if err != nil {
				continue
			}
			keys[k.Kid] = pub
		}
	}
	return keys, nil
}
