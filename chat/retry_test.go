package chat

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRetryPolicyDefaults checks each setting of a RetryPolicy at zero
// (the default), below it and at the least value that counts.
func TestRetryPolicyDefaults(t *testing.T) {
	def := RetryPolicy{MaxRetries: 4, BaseDelay: time.Second, MaxDelay: 30 * time.Second, MaxRetryAfter: 2 * time.Minute}
	for _, tc := range []struct {
		in, want RetryPolicy
	}{
		{RetryPolicy{}, def},
		{RetryPolicy{MaxRetries: -1, BaseDelay: -1, MaxDelay: -1, MaxRetryAfter: -1}, RetryPolicy{MaxRetries: 0, BaseDelay: time.Second, MaxDelay: 30 * time.Second, MaxRetryAfter: 2 * time.Minute}},
		{RetryPolicy{MaxRetries: 1, BaseDelay: 1, MaxDelay: 1, MaxRetryAfter: 1}, RetryPolicy{MaxRetries: 1, BaseDelay: 1, MaxDelay: 1, MaxRetryAfter: 1}},
	} {
		if diff := cmp.Diff(tc.want, tc.in.withDefaults()); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestBackoffDoublesUpToTheCap draws the delay before each retry many
// times: retry n waits between half and all of BaseDelay·2ⁿ, capped at
// MaxDelay, and the draws spread over both halves of that range.
func TestBackoffDoublesUpToTheCap(t *testing.T) {
	p := RetryPolicy{BaseDelay: time.Second, MaxDelay: 30 * time.Second}.withDefaults()
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 62, 64, 100} {
		d := 30 * time.Second
		if n < 5 {
			d = time.Second << n // 1, 2, 4, 8, 16 s; 32 s is past the cap
		}
		low, high := false, false
		for range 200 {
			w := p.backoff(n)
			if w < d/2 || w > d {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, w, d/2, d)
			}
			low = low || w < d*3/4
			high = high || w > d*3/4
		}
		if !low || !high {
			t.Errorf("backoff(%d): 200 draws all in one half of [%v, %v]", n, d/2, d)
		}
	}
	// A cap that is a power of two times the base: reached exactly.
	p = RetryPolicy{BaseDelay: time.Second, MaxDelay: 4 * time.Second}.withDefaults()
	for range 100 {
		if w := p.backoff(2); w < 2*time.Second || w > 4*time.Second {
			t.Fatalf("backoff(2) with a 4s cap = %v", w)
		}
	}
}

// TestMaxRetries counts the requests sent for a server that always fails:
// the first and MaxRetries more, 4 more by default, none when negative.
func TestMaxRetries(t *testing.T) {
	boom := jsonReply(503, `{"error":{"message":"overloaded"}}`)
	for _, tc := range []struct {
		max, requests int
	}{
		{-1, 1}, {1, 2}, {2, 3}, {0, 5},
	} {
		script := make([]reply, tc.requests)
		for i := range script {
			script[i] = boom
		}
		f := newFake(t, script...)
		s := &sleeps{}
		c := f.client(s)
		c.Retry.MaxRetries = tc.max
		err := failTurn(t, c)
		if n := len(f.requests()); n != tc.requests {
			t.Errorf("MaxRetries %d: %d requests, want %d", tc.max, n, tc.requests)
		}
		if n := len(s.all()); n != tc.requests-1 {
			t.Errorf("MaxRetries %d: %d waits, want %d", tc.max, n, tc.requests-1)
		}
		want := "turn step 1: chat request: HTTP 503 Service Unavailable: overloaded"
		if tc.requests > 1 {
			want = fmt.Sprintf("turn step 1: chat request failed after %d retries: HTTP 503 Service Unavailable: overloaded", tc.requests-1)
		}
		if err.Error() != want {
			t.Errorf("MaxRetries %d: error %q, want %q", tc.max, err, want)
		}
	}
}

// TestMaxRetryAfter asks for a wait below, at and past MaxRetryAfter: the
// client waits exactly that long, or gives up without waiting.
func TestMaxRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		after string
		waits []time.Duration
	}{
		{"4", []time.Duration{4 * time.Second}},
		{"5", []time.Duration{5 * time.Second}},
		{"6", nil},
	} {
		script := []reply{jsonReply(429, `{"error":{"message":"slow down"}}`, "Retry-After", tc.after)}
		if tc.waits != nil {
			script = append(script, answer("ok"))
		}
		f := newFake(t, script...)
		s := &sleeps{}
		c := f.client(s)
		c.Retry.MaxRetryAfter = 5 * time.Second
		conv := &Conversation{Client: c}
		got, err := conv.Turn(context.Background(), "hi")
		if tc.waits != nil && (err != nil || got != "ok") {
			t.Errorf("Retry-After %s: %q, %v", tc.after, got, err)
		}
		if tc.waits == nil && (err == nil || !strings.Contains(err.Error(), "the server asks to wait 6s before retrying")) {
			t.Errorf("Retry-After %s: error %v", tc.after, err)
		}
		if diff := cmp.Diff(tc.waits, s.all()); diff != "" {
			t.Errorf("Retry-After %s: waits (-want +got):\n%s", tc.after, diff)
		}
	}
}

// recordingTransport counts the requests that go through it.
type recordingTransport struct {
	mu   sync.Mutex
	urls []string
	next http.RoundTripper
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	rt.urls = append(rt.urls, r.URL.Path)
	rt.mu.Unlock()
	return rt.next.RoundTrip(r)
}

// TestHTTPClientIsUsed sends through a configured HTTPClient and checks
// that every request, the retry included, went through it.
func TestHTTPClientIsUsed(t *testing.T) {
	f := newFake(t, jsonReply(500, `{"error":{"message":"once"}}`), answer("ok"))
	rt := &recordingTransport{next: f.srv.Client().Transport}
	c := f.client(nil)
	c.HTTPClient = &http.Client{Transport: rt}
	got, err := (&Conversation{Client: c}).Turn(context.Background(), "hi")
	if err != nil || got != "ok" {
		t.Fatalf("Turn = %q, %v", got, err)
	}
	if diff := cmp.Diff([]string{"/v1/chat/completions", "/v1/chat/completions"}, rt.urls); diff != "" {
		t.Errorf("requests through the configured client (-want +got):\n%s", diff)
	}
	if c := (&Client{}).httpClient(); c != http.DefaultClient {
		t.Errorf("no HTTPClient: %v, want http.DefaultClient", c)
	}
}

// TestInBandErrorIn200 reads an {"error":…} body in a 200 answer as an
// *APIError with the server's message and type, not as an answer without
// choices.
func TestInBandErrorIn200(t *testing.T) {
	for _, body := range []string{
		`{"error":{"message":"internal","type":"invalid_request_error"}}`,
		`{"error":{"message":"internal","type":"invalid_request_error"},"choices":[]}`,
	} {
		f := newFake(t, jsonReply(200, body))
		c := f.client(nil)
		c.NoStream = true
		err := failTurn(t, c)
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("%s: err = %v, want an *APIError", body, err)
		}
		if apiErr.Message != "internal" || apiErr.Type != "invalid_request_error" || strings.Contains(err.Error(), "no choices") {
			t.Errorf("%s: %+v (%v)", body, apiErr, err)
		}
	}
	// "error": null is no error.
	f := newFake(t, jsonReply(200, `{"error":null,"choices":[{"index":0,"message":{"role":"assistant","content":"fine"},"finish_reason":"stop"}]}`))
	c := f.client(nil)
	c.NoStream = true
	if got, err := (&Conversation{Client: c}).Turn(context.Background(), "hi"); err != nil || got != "fine" {
		t.Errorf(`"error": null: %q, %v`, got, err)
	}
}

// TestMaxStreamBytes bounds a stream whose [DONE] line ends at byte E: a
// limit of E bytes reads it, E-1 does not.
func TestMaxStreamBytes(t *testing.T) {
	body := "data: " + text("hi") + "\n\ndata: " + finish("stop") + "\n\ndata: [DONE]\n\n"
	end := len(body) - 2 // the [DONE] line without its newline
	for _, tc := range []struct {
		max     int64
		tooLong bool
	}{
		{int64(end) + 1, false}, {int64(end), false}, {int64(end) - 1, true}, {0, false}, {-1, false},
	} {
		f := newFake(t, rawSSE(body))
		c := f.client(nil)
		c.MaxStreamBytes = tc.max
		got, err := (&Conversation{Client: c}).Turn(context.Background(), "hi")
		if tc.tooLong != errors.Is(err, ErrStreamTooLarge) || !tc.tooLong && got != "hi" {
			t.Errorf("MaxStreamBytes %d for %d bytes: %q, %v", tc.max, end, got, err)
		}
		if n := len(f.requests()); n != 1 {
			t.Errorf("MaxStreamBytes %d: %d requests, want 1 (a runaway stream is not retried)", tc.max, n)
		}
	}
}

// TestIdleTimeoutSetting: zero is five minutes, negative no bound.
func TestIdleTimeoutSetting(t *testing.T) {
	got := []time.Duration{
		(&Client{}).idleTimeout(),
		(&Client{StreamIdleTimeout: -1}).idleTimeout(),
		(&Client{StreamIdleTimeout: 1}).idleTimeout(),
	}
	if diff := cmp.Diff([]time.Duration{5 * time.Minute, 0, 1}, got); diff != "" {
		t.Errorf("idle timeouts (-want +got):\n%s", diff)
	}
}

// TestRetryAfterExact reads Retry-After and Retry-After-Ms against a fixed
// clock: zero, below zero and just above it, and an HTTP date before, at
// and after now.
func TestRetryAfterExact(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	date := func(d time.Duration) string { return now.Add(d).Format(http.TimeFormat) }
	for _, tc := range []struct {
		header []string
		want   time.Duration
	}{
		{nil, 0},
		{[]string{"Retry-After", "3"}, 3 * time.Second},
		{[]string{"Retry-After", "0.5"}, 500 * time.Millisecond},
		{[]string{"Retry-After", "0"}, 0},
		{[]string{"Retry-After", "-1"}, 0},
		{[]string{"Retry-After", " 2 "}, 2 * time.Second},
		{[]string{"Retry-After", "soon"}, 0},
		{[]string{"Retry-After", date(30 * time.Second)}, 30 * time.Second},
		{[]string{"Retry-After", date(time.Second)}, time.Second},
		{[]string{"Retry-After", date(0)}, 0},
		{[]string{"Retry-After", date(-time.Second)}, 0},
		{[]string{"Retry-After-Ms", "1500", "Retry-After", "2"}, 1500 * time.Millisecond},
		{[]string{"Retry-After-Ms", "1"}, time.Millisecond},
		{[]string{"Retry-After-Ms", "0", "Retry-After", "2"}, 2 * time.Second},
		{[]string{"Retry-After-Ms", "-5", "Retry-After", "2"}, 2 * time.Second},
		{[]string{"Retry-After-Ms", "x", "Retry-After", "2"}, 2 * time.Second},
		// Past what a time.Duration holds: the longest wait, where the
		// conversion of the float gave math.MinInt64 on amd64, a wait
		// below zero that was retried at once.
		{[]string{"Retry-After", "1e10"}, math.MaxInt64},
		{[]string{"Retry-After", "9223372036.855"}, math.MaxInt64},
		{[]string{"Retry-After", "+Inf"}, math.MaxInt64},
		{[]string{"Retry-After-Ms", "1e300"}, math.MaxInt64},
		{[]string{"Retry-After", "9223372036"}, 9223372036 * time.Second},
		{[]string{"Retry-After", "NaN"}, 0},
		{[]string{"Retry-After-Ms", "NaN", "Retry-After", "2"}, 2 * time.Second},
		{[]string{"Retry-After", "-Inf"}, 0},
	} {
		h := http.Header{}
		for i := 0; i+1 < len(tc.header); i += 2 {
			h.Set(tc.header[i], tc.header[i+1])
		}
		if got := retryAfter(h, now); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.header, got, tc.want)
		}
	}
}

// TestRetryAfterCenturies: a server that asks to wait longer than a
// time.Duration holds is not retried, as one that asks for ten minutes:
// "Retry-After: 1e10" was retried after the backoff (3 requests where 1
// was due), the wait having become math.MinInt64.
func TestRetryAfterCenturies(t *testing.T) {
	for _, h := range [][]string{{"Retry-After", "1e10"}, {"Retry-After", "+Inf"}, {"Retry-After-Ms", "1e300"}} {
		f := newFake(t, jsonReply(429, `{"error":{"message":"slow down"}}`, h...), answer("ok"))
		s := &sleeps{}
		_, err := (&Conversation{Client: f.client(s)}).Turn(context.Background(), "hi")
		if err == nil || !strings.Contains(err.Error(), "before retrying") || len(s.all()) != 0 || len(f.requests()) != 1 {
			t.Errorf("%q: err = %v, waits %v, %d requests; want one request, not retried", h, err, s.all(), len(f.requests()))
		}
	}
}
