package toolbox

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHTTPXDoBodyLimit reads a body of exactly httpxMaxBody bytes whole,
// and refuses one a byte longer.
func TestHTTPXDoBodyLimit(t *testing.T) {
	f := newHTTPXFake(t, map[string]http.HandlerFunc{
		"/at":   httpxServeBody(http.StatusOK, "text/plain", strings.Repeat("a", httpxMaxBody)),
		"/past": httpxServeBody(http.StatusOK, "text/plain", strings.Repeat("a", httpxMaxBody+1)),
	})
	type answer struct {
		Status, Len int
		Err         string
	}
	var got []answer
	for _, path := range []string{"/at", "/past"} {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, f.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		status, body, err := httpxDo(&http.Client{}, req, "Svc")
		a := answer{Status: status, Len: len(body)}
		if err != nil {
			a.Err = err.Error()
		}
		got = append(got, a)
	}
	want := []answer{
		{Status: 200, Len: httpxMaxBody},
		{Err: "Svc sent a response larger than 4194304 bytes; try again with a narrower request"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("httpxDo (-want +got):\n%s", diff)
	}
}

// TestHTTPXDoRedirectLimit follows a chain of 9 redirects and stops at the
// 10th, as net/http's default does.
func TestHTTPXDoRedirectLimit(t *testing.T) {
	srv := redirectChain(t)
	type answer struct {
		Status int
		Body   string
		Err    string
	}
	var got []answer
	for _, n := range []int{9, 10} {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+"/r/"+strconv.Itoa(n), nil)
		if err != nil {
			t.Fatal(err)
		}
		status, body, err := httpxDo(&http.Client{}, req, "Svc")
		a := answer{Status: status, Body: string(body)}
		if err != nil {
			a.Err = err.Error()
		}
		got = append(got, a)
	}
	want := []answer{
		{Status: 200, Body: "end"},
		{Err: "could not reach Svc (stopped after 10 redirects); try again later"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("httpxDo (-want +got):\n%s", diff)
	}
}

// TestHTTPXTruncateWordBoundary cuts between words only when the word cut
// short is at most a fifth of the limit.
func TestHTTPXTruncateWordBoundary(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"a bcdefghijklmnop", 10, "a bcdefgh…"},                       // " bcdefgh" is 8 runes: kept
		{"abcdefg hijklmnop", 10, "abcdefg…"},                         // " h" is 2 runes: dropped
		{"abcdef ghijklmnop", 10, "abcdef gh…"},                       // " gh" is 3 runes: kept
		{" bcdefghijklmnop", 10, " bcdefghi…"},                        // " bcdefghi" is 9 runes: kept, leading space and all
		{"abcdefghijklmnopqrstu vwxyz", 25, "abcdefghijklmnopqrstu…"}, // " vw" is 3 runes, a fifth of 25 is 5
	}
	for _, tt := range tests {
		if got := httpxTruncate(tt.in, tt.limit); got != tt.want {
			t.Errorf("httpxTruncate(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
	}
}
