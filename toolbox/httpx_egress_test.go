package toolbox

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/egress"
)

// TestHTTPXDoRedirectJudged: a configured endpoint (here on loopback) is
// trusted, and a redirect within it is followed; a redirect to another
// destination goes through the egress policy of the request's context:
// another loopback port is refused by default and followed once allowed.
func TestHTTPXDoRedirectJudged(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "other")
	}))
	defer other.Close()
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/end", http.StatusFound)
		default:
			io.WriteString(w, "end")
		}
	}))
	defer endpoint.Close()
	do := func(ctx context.Context, path string) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, body, err := httpxDo(&http.Client{}, req, "Svc")
		return string(body), err
	}
	ctx := context.Background()
	if body, err := do(ctx, "/here"); err != nil || body != "end" {
		t.Errorf("a redirect within the endpoint: %q, %v; want end", body, err)
	}
	_, err := do(ctx, "/away")
	var denied *egress.Denied
	if !errors.As(err, &denied) || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a redirect to another loopback port: %v, want it denied by the egress policy", err)
	}
	allow, err := egress.Parse(strings.TrimPrefix(other.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	if body, err := do(egress.WithPolicy(ctx, allow), "/away"); err != nil || body != "other" {
		t.Errorf("a redirect to an allowed destination: %q, %v; want other", body, err)
	}
}
