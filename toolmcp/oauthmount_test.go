package toolmcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"
)

// staticOAuth is an OAuth handler with one token, given after the first
// 401: it counts its sign-ins.
type staticOAuth struct {
	token string
	mu    sync.Mutex
	signs int
}

func (h *staticOAuth) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.signs == 0 {
		return nil, nil
	}
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: h.token}), nil
}

func (h *staticOAuth) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	h.mu.Lock()
	h.signs++
	h.mu.Unlock()
	return nil
}

var _ auth.OAuthHandler = (*staticOAuth)(nil)

// TestMountOAuth mounts a server that needs a bearer token through the
// server's OAuth handler, which signs in at the first 401.
func TestMountOAuth(t *testing.T) {
	t.Parallel()
	srv := sdkServer()
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-0123456789" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	h := &staticOAuth{token: "tok-0123456789"}
	m := mount(t, []string{"docs=" + ts.URL + "/mcp"}, &MountOptions{OAuth: map[string]auth.OAuthHandler{"docs": h}})
	if got := m.Names(); len(got) == 0 || !strings.HasPrefix(got[0], "docs__") {
		t.Fatalf("mounted tools = %q", got)
	}
	if h.signs != 1 {
		t.Errorf("signed in %d times, want 1", h.signs)
	}
}

// TestOAuthTokenStaysHome: a redirect from the server to another origin
// loses the Authorization header.
func TestOAuthTokenStaysHome(t *testing.T) {
	t.Parallel()
	var got []string
	var mu sync.Mutex
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	t.Cleanup(other.Close)
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(home.Close)
	c := withOAuth(&http.Client{}, home.URL+"/mcp")
	req, _ := http.NewRequest(http.MethodGet, home.URL+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer tok-0123456789")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(got) != 1 || got[0] != "" {
		t.Errorf("the other origin got Authorization %q, want none", got)
	}
}

// TestConnectTimeoutSignIn: a server with an OAuth handler gets the
// sign-in time on top of the connect timeout; others do not.
func TestConnectTimeoutSignIn(t *testing.T) {
	t.Parallel()
	o := &MountOptions{ConnectTimeout: time.Second, SignInTimeout: time.Minute, OAuth: map[string]auth.OAuthHandler{"a": &staticOAuth{}}}
	for _, tt := range []struct {
		sp   Spec
		want time.Duration
	}{
		{Spec{Name: "a", URL: "https://a.example.com/mcp"}, time.Minute + time.Second},
		{Spec{Name: "b", URL: "https://b.example.com/mcp"}, time.Second},
		{Spec{Name: "a", Command: []string{"x"}}, time.Second},
	} {
		if got := o.connectTimeout(tt.sp); got != tt.want {
			t.Errorf("connectTimeout(%v) = %s, want %s", tt.sp, got, tt.want)
		}
	}
}
