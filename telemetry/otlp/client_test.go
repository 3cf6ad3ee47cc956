package otlp

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
)

// fakeClock makes c wait no time, record the delays it waits, and count
// them as passed on the clock of its retry budget.
func fakeClock(c *client) *[]time.Duration {
	var delays []time.Duration
	now := time.Unix(1_700_000_000, 0)
	c.now = func() time.Time { return now }
	c.wait = func(ctx context.Context, d time.Duration) error {
		delays = append(delays, d)
		now = now.Add(d)
		return ctx.Err()
	}
	return &delays
}

// exportOnce sends testSpans to a collector answering with respond, with
// cfg changed by edit, and returns the error, the requests and the delays
// waited between them.
func exportOnce(t *testing.T, edit func(*Config), respond func(n int, w http.ResponseWriter, r *http.Request)) ([]request, []time.Duration, error) {
	t.Helper()
	c := newCollector(t, respond)
	cfg := testConfig(c.URL + "/v1/traces")
	if edit != nil {
		edit(&cfg)
	}
	x, err := NewSpanExporter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	delays := fakeClock(x.c)
	err = x.ExportSpans(t.Context(), testSpans(t))
	return c.requests(), *delays, err
}

// TestRetries checks which statuses are retried, with backoff or after the
// delay Retry-After gives, and that the timeout bounds the retries.
func TestRetries(t *testing.T) {
	failFirst := func(k int, status int, retryAfter string) func(int, http.ResponseWriter, *http.Request) {
		return func(n int, w http.ResponseWriter, r *http.Request) {
			if n <= k {
				if retryAfter != "" {
					w.Header().Set("Retry-After", retryAfter)
				}
				w.WriteHeader(status)
			}
		}
	}
	for _, status := range []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			reqs, delays, err := exportOnce(t, nil, failFirst(2, status, ""))
			if err != nil {
				t.Fatal(err)
			}
			if len(reqs) != 3 {
				t.Errorf("%d requests, want 3", len(reqs))
			}
			// Backoff from 1 s, doubled, jittered down to half.
			if len(delays) != 2 || delays[0] < 500*time.Millisecond || delays[0] > time.Second ||
				delays[1] < time.Second || delays[1] > 2*time.Second {
				t.Errorf("delays %v, want one in [0.5s, 1s] then one in [1s, 2s]", delays)
			}
		})
	}
	t.Run("Retry-After seconds", func(t *testing.T) {
		reqs, delays, err := exportOnce(t, nil, failFirst(1, http.StatusTooManyRequests, "3"))
		if err != nil || len(reqs) != 2 {
			t.Fatalf("err %v, %d requests; want none, 2", err, len(reqs))
		}
		if d := cmp.Diff([]time.Duration{3 * time.Second}, delays); d != "" {
			t.Errorf("delays (-want +got):\n%s", d)
		}
	})
	t.Run("Retry-After date", func(t *testing.T) {
		date := time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)
		_, delays, err := exportOnce(t, nil, failFirst(1, http.StatusServiceUnavailable, date))
		if err != nil || len(delays) != 1 || delays[0] <= 2*time.Second || delays[0] > 5*time.Second {
			t.Errorf("err %v, delays %v; want none and one delay in (2s, 5s]", err, delays)
		}
	})
	t.Run("Retry-After past the timeout", func(t *testing.T) {
		reqs, delays, err := exportOnce(t, nil, failFirst(1, http.StatusTooManyRequests, "11"))
		if err == nil || !strings.Contains(err.Error(), "429 Too Many Requests (attempt 1; the next retry, in 11s, would pass the 10s timeout)") {
			t.Errorf("err = %v, want a 429 that is not retried past the timeout", err)
		}
		if len(reqs) != 1 || len(delays) != 0 {
			t.Errorf("%d requests, delays %v; want 1 and none", len(reqs), delays)
		}
	})
	for _, after := range []string{"9", "10"} {
		t.Run("Retry-After at or below the timeout", func(t *testing.T) {
			reqs, _, err := exportOnce(t, nil, failFirst(1, http.StatusTooManyRequests, after))
			if err != nil || len(reqs) != 2 {
				t.Errorf("Retry-After: %s: err %v, %d requests; want none, 2", after, err, len(reqs))
			}
		})
	}
	t.Run("always 503", func(t *testing.T) {
		reqs, delays, err := exportOnce(t, nil, failFirst(1000, http.StatusServiceUnavailable, ""))
		if err == nil || !strings.Contains(err.Error(), "503 Service Unavailable") {
			t.Errorf("err = %v, want a 503", err)
		}
		// The delays 0.5–1, 1–2, 2–4, 4–8 s: the first three always fit in
		// 10 s, the fourth may.
		var sum time.Duration
		for _, d := range delays {
			sum += d
		}
		if len(reqs) < 4 || len(reqs) > 5 || len(delays) != len(reqs)-1 || sum > 10*time.Second {
			t.Errorf("%d requests, delays %v; want 4 or 5 within the 10 s timeout", len(reqs), delays)
		}
	})
	t.Run("transport error", func(t *testing.T) {
		reqs, delays, err := exportOnce(t, nil, func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
			}
		})
		if err != nil || len(reqs) != 2 || len(delays) != 1 {
			t.Errorf("err %v, %d requests, delays %v; want a retry after the dropped connection", err, len(reqs), delays)
		}
	})
}

// TestTimeout checks that a collector that does not answer makes the
// export fail when the timeout passes, without retrying.
func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	reqs, delays, err := exportOnce(t, func(c *Config) { c.Timeout = 50 * time.Millisecond }, func(n int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if len(reqs) != 1 || len(delays) != 0 {
		t.Errorf("%d requests, delays %v; want 1 and none", len(reqs), delays)
	}
}

// TestBadRequest checks that a 400 is an error naming the URL, the status
// and the collector's message, not retried, without the URL's password.
func TestBadRequest(t *testing.T) {
	body, err := proto.Marshal(&status.Status{Code: 3, Message: "bad span"})
	if err != nil {
		t.Fatal(err)
	}
	var url string
	reqs, _, err := exportOnce(t, func(c *Config) {
		c.URL = strings.Replace(c.URL, "http://", "http://user:sekrit@", 1)
		url = strings.Replace(c.URL, "sekrit", "xxxxx", 1)
	}, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(body)
	})
	want := "otlp: POST " + url + ": 400 Bad Request: bad span"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if len(reqs) != 1 {
		t.Errorf("%d requests, want 1", len(reqs))
	}
	_, _, err = exportOnce(t, nil, func(n int, w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusUnauthorized)
	})
	if err == nil || !strings.HasSuffix(err.Error(), "/v1/traces: 401 Unauthorized") {
		t.Errorf("401: err = %v, want the status without the text body", err)
	}
}

// TestPartialSuccess checks that a partial success is an error wrapping
// ErrPartialSuccess, and that an empty one or none is not.
func TestPartialSuccess(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp *coltracepb.ExportTraceServiceResponse
		want string
	}{
		{"none", &coltracepb.ExportTraceServiceResponse{}, ""},
		{"empty", &coltracepb.ExportTraceServiceResponse{PartialSuccess: &coltracepb.ExportTracePartialSuccess{}}, ""},
		{"rejected", &coltracepb.ExportTraceServiceResponse{PartialSuccess: &coltracepb.ExportTracePartialSuccess{RejectedSpans: 2, ErrorMessage: "too old"}},
			"partial success: 2 spans rejected: too old"},
		{"warning", &coltracepb.ExportTraceServiceResponse{PartialSuccess: &coltracepb.ExportTracePartialSuccess{ErrorMessage: "deprecated"}},
			"partial success: 0 spans rejected: deprecated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := proto.Marshal(tc.resp)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = exportOnce(t, nil, func(n int, w http.ResponseWriter, r *http.Request) { w.Write(body) })
			if tc.want == "" {
				if err != nil {
					t.Errorf("err = %v, want none", err)
				}
				return
			}
			if !errors.Is(err, ErrPartialSuccess) || !strings.HasSuffix(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrPartialSuccess ending %q", err, tc.want)
			}
		})
	}
	_, _, err := exportOnce(t, nil, func(n int, w http.ResponseWriter, r *http.Request) { w.Write([]byte("{\"partialSuccess\":{}}")) })
	if err != nil {
		t.Errorf("a body that is not protobuf: err = %v, want none", err)
	}
}

// TestHeaders checks that the configured headers reach the collector and
// that a failure does not show them.
func TestHeaders(t *testing.T) {
	cfg, err := FromEnv(envOf(map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20sekrit,x-tenant=t1"}), Traces)
	if err != nil {
		t.Fatal(err)
	}
	reqs, _, err := exportOnce(t, func(c *Config) { c.Header = cfg.Header }, func(n int, w http.ResponseWriter, r *http.Request) {
		http.Error(w, r.Header.Get("Authorization"), http.StatusBadRequest)
	})
	got := []string{reqs[0].Header.Get("Authorization"), reqs[0].Header.Get("X-Tenant"), reqs[0].Header.Get("Content-Type")}
	if d := cmp.Diff([]string{"Bearer sekrit", "t1", "application/x-protobuf"}, got); d != "" {
		t.Errorf("headers (-want +got):\n%s", d)
	}
	if err == nil || strings.Contains(err.Error(), "sekrit") {
		t.Errorf("err = %v, want one that does not show the header", err)
	}
}

// TestHeadersKeptAtTheCollector: a collector that redirects to another
// origin (here another port of the same host) has the spans sent there
// without the configured headers, which net/http would copy; a redirect
// within its own origin keeps them.
func TestHeadersKeptAtTheCollector(t *testing.T) {
	cfg, err := FromEnv(envOf(map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20sekrit,x-api-key=k1"}), Traces)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := newCollector(t, nil)
	for _, tt := range []struct {
		name  string
		to    func(home string) string
		moved bool     // whether the spans arrived elsewhere
		want  []string // Authorization and X-Api-Key where the spans arrived
	}{
		{"another origin", func(string) string { return elsewhere.URL + "/v1/traces" }, true, []string{"", ""}},
		{"the same origin", func(home string) string { return home + "/v1/moved" }, false, []string{"Bearer sekrit", "k1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var home string
			reqs, _, err := exportOnce(t, func(c *Config) {
				c.Header = cfg.Header
				home = strings.TrimSuffix(c.URL, "/v1/traces")
			}, func(n int, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/v1/traces" {
					http.Redirect(w, r, tt.to(home), http.StatusTemporaryRedirect)
				}
			})
			if err != nil {
				t.Fatalf("export: %v", err)
			}
			if tt.moved {
				reqs = elsewhere.requests()
			}
			if len(reqs) == 0 {
				t.Fatal("the redirect was not followed")
			}
			last := reqs[len(reqs)-1]
			got := []string{last.Header.Get("Authorization"), last.Header.Get("X-Api-Key")}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("headers where the spans arrived (-want +got):\n%s", d)
			}
		})
	}
}

// TestShutdown checks that exports fail after Shutdown.
func TestShutdown(t *testing.T) {
	c := newCollector(t, nil)
	x, _ := NewSpanExporter(testConfig(c.URL))
	m, _ := NewMetricExporter(testConfig(c.URL))
	x.Shutdown(t.Context())
	m.Shutdown(t.Context())
	if err := x.ExportSpans(t.Context(), testSpans(t)); !errors.Is(err, errShutdown) {
		t.Errorf("spans: err = %v, want errShutdown", err)
	}
	if err := m.Export(t.Context(), testMetrics(t, sdkmetric.DefaultTemporalitySelector, sdkmetric.DefaultAggregationSelector)); !errors.Is(err, errShutdown) {
		t.Errorf("metrics: err = %v, want errShutdown", err)
	}
	if _, err := NewSpanExporter(Config{URL: "localhost:4318"}); err == nil {
		t.Error("a URL without a scheme: no error")
	}
}

// TestResponseBodies checks that every prefix of a partial success
// response, and bytes that are not protobuf, are read without a panic, and
// that only the whole response is an error.
func TestResponseBodies(t *testing.T) {
	body, err := proto.Marshal(&coltracepb.ExportTraceServiceResponse{PartialSuccess: &coltracepb.ExportTracePartialSuccess{RejectedSpans: 300, ErrorMessage: "rejected"}})
	if err != nil {
		t.Fatal(err)
	}
	c := &client{url: "u", what: "spans"}
	for n := range len(body) {
		if err := c.partialSuccess(body[:n]); err != nil {
			t.Errorf("prefix of %d bytes: %v", n, err)
		}
		statusMessage(body[:n])
	}
	if err := c.partialSuccess(body); !errors.Is(err, ErrPartialSuccess) || !strings.HasSuffix(err.Error(), "300 spans rejected: rejected") {
		t.Errorf("whole body: err = %v", err)
	}
	for _, junk := range [][]byte{{0xff}, {0x0a, 0xff, 0xff}, {0x08}, {0x00}, {0x0d, 1, 2}, {0x0f}} {
		if err := c.partialSuccess(junk); err != nil {
			t.Errorf("%x: err = %v, want none", junk, err)
		}
		if m := statusMessage(junk); m != "" {
			t.Errorf("%x: status message %q, want none", junk, m)
		}
	}
}
