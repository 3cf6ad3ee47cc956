package chat

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestKeyCutAtTheLimit puts the API key across the point where an error
// body is shortened for the message: no part of it may be printed.
func TestKeyCutAtTheLimit(t *testing.T) {
	// The body is shown up to maxShown bytes; the key starts 5 bytes
	// before the cut, so a cut before redaction would print 5 of its
	// bytes and hide the rest from a whole-key search.
	for _, before := range []int{5, len(testKey) / 2, len(testKey) - 1} {
		body := strings.Repeat("x", maxShown-before) + testKey + " more text after the key"
		f := newFake(t, respond(http.StatusBadRequest, "text/plain", body))
		c := f.client(nil)
		_, err := c.Complete(context.Background(), Request{}, nil)
		if err == nil {
			t.Fatal("Complete succeeded, want an error")
		}
		msg := err.Error()
		for n := 4; n <= len(testKey); n++ {
			if strings.Contains(msg, testKey[:n]) {
				t.Fatalf("key cut %d bytes before the limit: the message holds its first %d bytes", before, n)
			}
		}
	}
}

// TestStreamCap streams answers of about the cap: at and below it they
// are read, past it the request fails with ErrStreamTooLarge and is not
// retried.
func TestStreamCap(t *testing.T) {
	body := "data: " + chunk(`{"content":"x"}`) + "\n\n"
	body += "data: " + finish("stop") + "\n\ndata: [DONE]\n\n"
	size := int64(len(body))
	for _, tt := range []struct {
		max     int64
		tooLong bool
	}{{size + 1, false}, {size, false}, {size - 20, true}, {size / 2, true}} {
		f := newFake(t, rawSSE(body), rawSSE(body))
		c := f.client(nil)
		c.MaxStreamBytes = tt.max
		_, err := c.Complete(context.Background(), Request{}, nil)
		if got := errors.Is(err, ErrStreamTooLarge); got != tt.tooLong {
			t.Errorf("cap %d, answer %d bytes: err %v, want too large %v", tt.max, size, err, tt.tooLong)
		}
		if tt.tooLong && len(f.requests()) != 1 {
			t.Errorf("cap %d: %d requests, want 1 (no retry)", tt.max, len(f.requests()))
		}
	}
}

// TestKeyKeptAtOrigin redirects a request to another origin on the same
// host (another port) and back to the endpoint's own: the API key and the
// Client's headers go to the endpoint's origin only. Go's own redirect
// policy sends Authorization to any port or scheme of the same host name,
// and other headers anywhere.
func TestKeyKeptAtOrigin(t *testing.T) {
	elsewhere := newFake(t, jsonReply(http.StatusOK, completion(`{"role":"assistant","content":"hi"}`, "stop")))
	for _, tt := range []struct {
		name   string
		target func(home *fakeServer) string
		// wantKey is whether the last server reached saw the key.
		wantKey bool
	}{
		{"another port", func(*fakeServer) string { return elsewhere.srv.URL + "/v1/chat/completions" }, false},
		{"the same origin", func(home *fakeServer) string { return home.srv.URL + "/v1/chat/completions?moved=1" }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var home *fakeServer
			home = newFake(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, tt.target(home), http.StatusTemporaryRedirect)
			}, jsonReply(http.StatusOK, completion(`{"role":"assistant","content":"hi"}`, "stop")))
			c := home.client(nil)
			c.NoStream = true
			c.Header = http.Header{"Api-Key": {testKey}, "X-Title": {"toolreg"}}
			if _, err := c.Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hello"}}}, nil); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			last := home.requests()
			if !tt.wantKey {
				last = elsewhere.requests()
			}
			if len(last) == 0 {
				t.Fatal("the redirect was not followed")
			}
			h := last[len(last)-1].Header
			got := map[string]string{"Authorization": h.Get("Authorization"), "Api-Key": h.Get("Api-Key"), "X-Title": h.Get("X-Title")}
			want := map[string]string{"Authorization": "", "Api-Key": "", "X-Title": ""}
			if tt.wantKey {
				want = map[string]string{"Authorization": "Bearer " + testKey, "Api-Key": testKey, "X-Title": "toolreg"}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("headers after the redirect (-want +got):\n%s", diff)
			}
		})
	}
}

// TestModels lists an endpoint's models, and checks that a failure says
// what went wrong without the key and that the key stays at the
// endpoint's origin when the list is elsewhere.
func TestModels(t *testing.T) {
	var seen []string // the Authorization header of each request, by server
	var mu sync.Mutex
	record := func(who string, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, who+": "+r.Header.Get("Authorization"))
	}
	list := `{"object":"list","data":[{"id":"b"},{"id":""},{"id":"a"}]}`
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record("other", r)
		io.WriteString(w, list)
	}))
	defer other.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record("home", r)
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, list)
		case "/moved/models":
			http.Redirect(w, r, other.URL+"/v1/models", http.StatusFound)
		case "/broken/models":
			http.Error(w, "no such thing "+testKey, http.StatusNotFound)
		default:
			io.WriteString(w, "not JSON")
		}
	}))
	defer home.Close()
	for _, tt := range []struct {
		base     string
		want     []string
		wantErr  string
		wantSeen []string
	}{
		{base: home.URL + "/v1", want: []string{"b", "a"}, wantSeen: []string{"home: Bearer " + testKey}},
		{base: home.URL + "/v1/chat/completions", want: []string{"b", "a"}, wantSeen: []string{"home: Bearer " + testKey}},
		{base: home.URL + "/moved/", want: []string{"b", "a"}, wantSeen: []string{"home: Bearer " + testKey, "other: "}},
		{base: home.URL + "/broken", wantErr: "HTTP 404: no such thing [REDACTED]", wantSeen: []string{"home: Bearer " + testKey}},
		{base: home.URL + "/text", wantErr: "the answer is not a model list", wantSeen: []string{"home: Bearer " + testKey}},
	} {
		seen = nil
		c := &Client{BaseURL: tt.base, APIKey: testKey, HTTPClient: home.Client()}
		got, err := c.Models(context.Background())
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), testKey) {
				t.Errorf("%s: error %v, want one saying %q without the key", tt.base, err, tt.wantErr)
			}
		} else if err != nil {
			t.Errorf("%s: %v", tt.base, err)
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: models (-want +got):\n%s", tt.base, diff)
		}
		if diff := cmp.Diff(tt.wantSeen, seen); diff != "" {
			t.Errorf("%s: requests (-want +got):\n%s", tt.base, diff)
		}
	}
	if _, err := (&Client{}).Models(context.Background()); !errors.Is(err, ErrNoBaseURL) {
		t.Errorf("no base URL: %v, want ErrNoBaseURL", err)
	}
}
