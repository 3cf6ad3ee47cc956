package origin

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestHas: the same scheme and host with its port, whatever their case;
// anything else is another origin.
func TestHas(t *testing.T) {
	o := Of(mustURL(t, "https://API.example:8443/v1"))
	for u, want := range map[string]bool{
		"https://api.example:8443/other":  true,
		"HTTPS://api.EXAMPLE:8443":        true,
		"http://api.example:8443/v1":      false,
		"https://api.example/v1":          false,
		"https://api.example:443/v1":      false,
		"https://sub.api.example:8443/v1": false,
		"https://api.example.evil:8443/":  false,
	} {
		if got := o.Has(mustURL(t, u)); got != want {
			t.Errorf("Has(%s) = %v, want %v", u, got, want)
		}
	}
}

// TestCheckRedirect: the named headers are deleted when a redirect leaves
// the first request's origin and kept when it does not; the next policy
// decides, or net/http's limit of 10 requests: a redirect after 9 is
// followed, one after 10 is not.
func TestCheckRedirect(t *testing.T) {
	first := &http.Request{URL: mustURL(t, "https://api.example/v1")}
	redirect := func(to string) *http.Request {
		return &http.Request{URL: mustURL(t, to), Header: http.Header{"Authorization": {"Bearer k"}, "X-Api-Key": {"k"}, "Accept": {"*/*"}}}
	}
	check := CheckRedirect(nil, "Authorization", "X-Api-Key")
	for to, want := range map[string]http.Header{
		"https://api.example/v2":      {"Authorization": {"Bearer k"}, "X-Api-Key": {"k"}, "Accept": {"*/*"}},
		"http://api.example/v1":       {"Accept": {"*/*"}},
		"https://api.example:8443/v1": {"Accept": {"*/*"}},
		"https://cdn.api.example/v1":  {"Accept": {"*/*"}},
	} {
		req := redirect(to)
		if err := check(req, []*http.Request{first}); err != nil {
			t.Errorf("%s: %v", to, err)
		}
		if diff := cmp.Diff(want, req.Header); diff != "" {
			t.Errorf("%s: headers (-want +got):\n%s", to, diff)
		}
	}
	for n, wantErr := range map[int]bool{9: false, 10: true, 11: true} {
		via := make([]*http.Request, n)
		for i := range via {
			via[i] = first
		}
		if err := check(redirect("https://api.example/v1"), via); (err != nil) != wantErr {
			t.Errorf("after %d redirects: %v, want an error %v", n, err, wantErr)
		}
	}
	stop := errors.New("stop")
	next := CheckRedirect(func(*http.Request, []*http.Request) error { return stop }, "X-Api-Key")
	req := redirect("https://elsewhere.example/")
	if err := next(req, []*http.Request{first}); err != stop {
		t.Errorf("next's error: %v, want %v", err, stop)
	}
	if req.Header.Get("X-Api-Key") != "" {
		t.Error("X-Api-Key kept on a redirect elsewhere before next ran")
	}
}
