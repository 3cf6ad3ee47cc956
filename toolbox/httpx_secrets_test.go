package toolbox

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolreg/toolreg/egress"
)

// TestBraveKeyNotSentAcrossHosts follows a redirect from the Brave base URL
// to another host (another loopback port) and to the same host: the key
// goes only to the host it was configured for.
func TestBraveKeyNotSentAcrossHosts(t *testing.T) {
	var mu sync.Mutex
	got := map[string]string{} // server → X-Subscription-Token received
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			got[name] = r.Header.Get("X-Subscription-Token")
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"web":{"results":[]}}`)
		}
	}
	other := httptest.NewServer(record("other host"))
	t.Cleanup(other.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/res/v1/web/search", func(w http.ResponseWriter, r *http.Request) {
		target := other.URL + "/landing"
		if r.URL.Query().Get("q") == "same" {
			target = "/same"
		}
		http.Redirect(w, r, target, http.StatusFound)
	})
	mux.HandleFunc("/same", record("same host"))
	origin := httptest.NewServer(mux)
	t.Cleanup(origin.Close)

	// The other host is on loopback: the egress policy, which judges a
	// redirect away from the configured endpoint, must allow it.
	allow, err := egress.Parse(strings.TrimPrefix(other.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := egress.WithPolicy(context.Background(), allow)
	for _, q := range []string{"away", "same"} {
		s := &WebSearch{getenv: httpxEnv(map[string]string{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: origin.URL})}
		if _, err := s.Execute(ctx, WebSearchArgs{Query: q}); err != nil {
			t.Fatalf("Execute(%q): %v", q, err)
		}
	}
	want := map[string]string{"other host": "", "same host": testBraveKey}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys received (-want +got):\n%s", diff)
	}
}

// TestEchoedKeyCutAtTheLimit has Brave echo the key so that it straddles
// the point where the reason is cut: no part of it may reach the model.
func TestEchoedKeyCutAtTheLimit(t *testing.T) {
	for _, before := range []int{5, len(testBraveKey) / 2, len(testBraveKey) - 1} {
		body := strings.Repeat("y", 199-before) + " " + testBraveKey + " and more"
		s, _ := newSearchFake(t, "/res/v1/web/search", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, body)
		}, map[string]string{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: "FAKE"})
		_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
		if err == nil {
			t.Fatal("Execute succeeded, want an error")
		}
		for n := 4; n <= len(testBraveKey); n++ {
			if strings.Contains(err.Error(), testBraveKey[:n]) {
				t.Fatalf("key %d bytes before the cut: the error holds its first %d bytes: %v", before, n, err)
			}
		}
	}
}
