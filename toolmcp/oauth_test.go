package toolmcp

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// fakeIssuer is an authorization server on loopback that signs access
// tokens with an RSA key it publishes in its JWKS, found through its
// RFC 8414 metadata.
type fakeIssuer struct {
	*httptest.Server
	key *rsa.PrivateKey
}

func newFakeIssuer(t *testing.T) *fakeIssuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeIssuer{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": f.URL, "jwks_uri": f.URL + "/jwks",
			"authorization_endpoint": f.URL + "/authorize", "token_endpoint": f.URL + "/token",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
			"n": base64.RawURLEncoding.EncodeToString(key.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(key.E)).Bytes()),
		}}})
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// token returns an access token signed with key (the issuer's when nil).
func (f *fakeIssuer) token(t *testing.T, claims jwt.MapClaims, key *rsa.PrivateKey) string {
	t.Helper()
	if key == nil {
		key = f.key
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = "k1"
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOAuthResourceServer serves a tool that runs programs behind OAuth:
// metadata, 401 with resource_metadata, tokens checked for signature,
// issuer, audience and expiry, and the scope tools:exec needed to call it.
func TestOAuthResourceServer(t *testing.T) {
	t.Parallel()
	iss := newFakeIssuer(t)
	tab := testTable()
	tab.Entries[2].Capabilities = tool.Exec // echo
	srv, err := NewServer(registry.MustNew(tab), nil)
	if err != nil {
		t.Fatal(err)
	}
	const resource = "http://mcp.test/"
	ts := httptest.NewServer(HTTPHandler(srv, &HTTPOptions{Token: "static-token-0123456789", OAuth: &OAuth{Issuer: iss.URL, Resource: resource, HTTPClient: iss.Client()}}))
	defer ts.Close()

	resp, err := ts.Client().Get(ts.URL + MetadataPath)
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
		Scopes   []string `json:"scopes_supported"`
	}
	json.NewDecoder(resp.Body).Decode(&meta)
	resp.Body.Close()
	if meta.Resource != resource || len(meta.Servers) != 1 || meta.Servers[0] != iss.URL || !strings.Contains(strings.Join(meta.Scopes, " "), "tools:exec") {
		t.Errorf("metadata %+v", meta)
	}

	status, h, _ := post(t, ts.Client(), ts.URL, rawCall)
	if want := `resource_metadata="http://mcp.test/.well-known/oauth-protected-resource"`; status != http.StatusUnauthorized || !strings.Contains(h.Get("WWW-Authenticate"), want) {
		t.Errorf("no token: %d, WWW-Authenticate %q; want 401 with %s", status, h.Get("WWW-Authenticate"), want)
	}

	now := time.Now()
	claims := func(scope string) jwt.MapClaims {
		return jwt.MapClaims{"iss": iss.URL, "aud": resource, "sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": scope}
	}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	with := func(c jwt.MapClaims, mod func(jwt.MapClaims)) jwt.MapClaims { mod(c); return c }
	for _, tt := range []struct {
		name, token string
		status      int
		body        string
	}{
		{"scope tools:exec", iss.token(t, claims("tools:exec"), nil), http.StatusOK, `"text":"echo raw"`},
		{"no exec scope", iss.token(t, claims("tools:network"), nil), http.StatusOK, `lacks the scope tools:exec`},
		{"static token", "static-token-0123456789", http.StatusOK, `"text":"echo raw"`},
		{"other audience", iss.token(t, with(claims("tools:exec"), func(c jwt.MapClaims) { c["aud"] = "http://other/" }), nil), http.StatusUnauthorized, ""},
		{"other issuer", iss.token(t, with(claims("tools:exec"), func(c jwt.MapClaims) { c["iss"] = "http://evil/" }), nil), http.StatusUnauthorized, ""},
		{"expired", iss.token(t, with(claims("tools:exec"), func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Hour).Unix() }), nil), http.StatusUnauthorized, ""},
		{"no expiry", iss.token(t, with(claims("tools:exec"), func(c jwt.MapClaims) { delete(c, "exp") }), nil), http.StatusUnauthorized, ""},
		{"other key", iss.token(t, claims("tools:exec"), other), http.StatusUnauthorized, ""},
		{"not a JWT", "garbage", http.StatusUnauthorized, ""},
	} {
		status, _, body := post(t, ts.Client(), ts.URL, rawCall, "Authorization", "Bearer "+tt.token)
		if status != tt.status || !strings.Contains(body, tt.body) {
			t.Errorf("%s: %d %s; want %d with %q", tt.name, status, body, tt.status, tt.body)
		}
	}
}

// TestOAuthInsufficientScope: told the tools' capabilities, the server
// refuses a call whose token lacks a scope with 403 and a challenge that
// names the scopes to ask for (step-up authorization).
func TestOAuthInsufficientScope(t *testing.T) {
	t.Parallel()
	iss := newFakeIssuer(t)
	srv, opts := scopedServer(t, iss, tool.Exec|tool.Network)
	ts := httptest.NewServer(HTTPHandler(srv, opts))
	defer ts.Close()
	claims := jwt.MapClaims{"iss": iss.URL, "aud": scopedResource, "exp": time.Now().Add(time.Hour).Unix(), "scope": "tools:network"}
	status, h, body := post(t, ts.Client(), ts.URL, rawCall, "Authorization", "Bearer "+iss.token(t, claims, nil))
	want := `Bearer error="insufficient_scope", scope="tools:network tools:exec", resource_metadata="http://mcp.test/.well-known/oauth-protected-resource"`
	if status != http.StatusForbidden || h.Get("WWW-Authenticate") != want || !strings.Contains(body, `"id":7`) || !strings.Contains(body, "lacks the scope tools:exec") {
		t.Errorf("%d, WWW-Authenticate %q, %s; want 403 with %s", status, h.Get("WWW-Authenticate"), body, want)
	}
	claims["scope"] = "tools:network tools:exec"
	if status, _, body := post(t, ts.Client(), ts.URL, rawCall, "Authorization", "Bearer "+iss.token(t, claims, nil)); status != http.StatusOK || !strings.Contains(body, "echo raw") {
		t.Errorf("with both scopes: %d %s", status, body)
	}
}

// TestJWKSECKeys reads the elliptic-curve keys of a JWKS: each as the
// point it names, short coordinates padded; a point off the curve and an
// unknown curve are left out.
func TestJWKSECKeys(t *testing.T) {
	t.Parallel()
	var keys []*ecdsa.PrivateKey
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()} {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	enc := base64.RawURLEncoding.EncodeToString
	coords := func(k *ecdsa.PrivateKey) (x, y []byte) {
		b, err := k.PublicKey.Bytes() // 4, X, Y
		if err != nil {
			t.Fatal(err)
		}
		n := (len(b) - 1) / 2
		return b[1 : 1+n], b[1+n:]
	}
	var set []map[string]string
	for i, k := range keys {
		x, y := coords(k)
		// A coordinate with leading zeros may be sent short.
		set = append(set, map[string]string{"kty": "EC", "kid": fmt.Sprint("e", i), "crv": k.Curve.Params().Name,
			"x": enc(bytes.TrimLeft(x, "\x00")), "y": enc(y)})
	}
	x, y := coords(keys[0])
	off := bytes.Clone(y)
	off[len(off)-1] ^= 1
	set = append(set,
		map[string]string{"kty": "EC", "kid": "off", "crv": "P-256", "x": enc(x), "y": enc(off)},
		map[string]string{"kty": "EC", "kid": "curve", "crv": "P-192", "x": enc(x), "y": enc(y)})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"keys": set})
	}))
	defer srv.Close()
	got, err := (&OAuth{Issuer: srv.URL, JWKSURL: srv.URL}).fetchKeys(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		pub, ok := got[fmt.Sprint("e", i)].(*ecdsa.PublicKey)
		if !ok || !pub.Equal(&k.PublicKey) {
			t.Errorf("key e%d (%s): got %v, want the issuer's", i, k.Curve.Params().Name, got[fmt.Sprint("e", i)])
		}
	}
	for _, kid := range []string{"off", "curve"} {
		if k, ok := got[kid]; ok {
			t.Errorf("key %q was read as %v, want it left out", kid, k)
		}
	}
}

// TestJWKSFailureRemembered: while the issuer's keys cannot be fetched,
// the requests that need them are refused (401) without each fetching
// them again: 10 requests with a token made 10 requests for the keys, one
// after another under the lock of the keys (each up to the client's 10 s
// timeout against an issuer that hangs), which any client could set off
// with a token of its own making. One fetch is made per jwksFailRetry.
func TestJWKSFailureRemembered(t *testing.T) {
	iss := newFakeIssuer(t)
	var fetches atomic.Int32
	keys := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer keys.Close()
	srv, err := NewServer(registry.MustNew(testTable()), nil)
	if err != nil {
		t.Fatal(err)
	}
	const resource = "http://mcp.test/"
	ts := httptest.NewServer(HTTPHandler(srv, &HTTPOptions{OAuth: &OAuth{Issuer: iss.URL, Resource: resource, JWKSURL: keys.URL, HTTPClient: keys.Client()}}))
	defer ts.Close()
	token := iss.token(t, jwt.MapClaims{"iss": iss.URL, "aud": resource, "exp": time.Now().Add(time.Hour).Unix()}, nil)
	var statuses []int
	for range 10 {
		status, _, _ := post(t, ts.Client(), ts.URL, rawCall, "Authorization", "Bearer "+token)
		statuses = append(statuses, status)
	}
	want := slices.Repeat([]int{http.StatusUnauthorized}, 10)
	if diff := cmp.Diff(want, statuses); diff != "" || fetches.Load() != 1 {
		t.Errorf("%d fetches of the keys, want 1; statuses (-want +got):\n%s", fetches.Load(), diff)
	}
}

// TestTokenScopeClaims reads a token's scopes from scope (a string, RFC
// 8693 and 9068), or from scp, a list (Okta) or a string (Microsoft Entra
// ID, whose scp holds the scopes separated by spaces, as scope does): an
// scp string read as no scopes refused every call that needed one.
func TestTokenScopeClaims(t *testing.T) {
	t.Parallel()
	var got [][]string
	for _, claims := range []jwt.MapClaims{
		{"scope": "tools:exec tools:network"},
		{"scp": []any{"tools:exec", "tools:network"}},
		{"scp": "tools:exec tools:network"},
		{"scope": "tools:exec", "scp": "tools:network"}, // scope counts
		{},
	} {
		got = append(got, tokenScopes(claims))
	}
	want := [][]string{{"tools:exec", "tools:network"}, {"tools:exec", "tools:network"}, {"tools:exec", "tools:network"}, {"tools:exec"}, nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scopes (-want +got):\n%s", diff)
	}
}

// scopedResource is the resource of scopedServer's OAuth options.
const scopedResource = "http://mcp.test/"

// scopedServer returns a server of the test table whose echo tool has
// caps, and HTTP options that take tokens of iss for scopedResource and
// ask for the scopes of each tool's capabilities.
func scopedServer(t *testing.T, iss *fakeIssuer, caps tool.Capability) (*mcp.Server, *HTTPOptions) {
	t.Helper()
	tab := testTable()
	tab.Entries[2].Capabilities = caps // echo
	reg := registry.MustNew(tab)
	srv, err := NewServer(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	of := func(name string) (tool.Capability, bool) {
		e, ok := reg.Lookup(name)
		return e.Capabilities | e.Reaches, ok
	}
	return srv, &HTTPOptions{OAuth: &OAuth{Issuer: iss.URL, Resource: scopedResource, HTTPClient: iss.Client(), Capabilities: of}}
}
