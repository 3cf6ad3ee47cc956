package toolbox

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// pingSteps returns a clock that moves on by step at each reading.
func pingSteps(step time.Duration) func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(step)
		return t
	}
}

// TestPingLatencyExact reports latencies read from a fake clock, rounded
// to a tenth of a millisecond: at a rounding half, below and past it.
func TestPingLatencyExact(t *testing.T) {
	srv, _ := pingTestServer(t)
	for _, tc := range []struct {
		step time.Duration
		want float64
	}{
		{0, 0},
		{time.Microsecond, 0},
		{49 * time.Microsecond, 0},
		{50 * time.Microsecond, 0.1},
		{1234567 * time.Nanosecond, 1.2},
		{1250 * time.Microsecond, 1.3},
		{1249 * time.Microsecond, 1.2},
		{2 * time.Second, 2000},
	} {
		p := PingURL{clock: pingSteps(tc.step)}
		got, err := p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL + "/ok"})
		if err != nil {
			t.Fatalf("step %v: %v", tc.step, err)
		}
		if got.LatencyMS != tc.want {
			t.Errorf("step %v: LatencyMS = %v, want %v", tc.step, got.LatencyMS, tc.want)
		}
	}
}

// TestPingRedirectLimit follows chains of 9, 10 and 11 redirects: the
// limit of 10 is followed, one more is refused with the address it led to.
func TestPingRedirectLimit(t *testing.T) {
	srv := redirectChain(t)
	for _, n := range []int{9, 10} {
		var p PingURL
		got, err := p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL + "/r/" + strconv.Itoa(n)})
		if err != nil || got.Redirects != n || got.StatusCode != 200 || got.FinalURL != srv.URL+"/r/0" {
			t.Errorf("%d redirects: %+v, %v", n, got, err)
		}
	}
	var p PingURL
	_, err := p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL + "/r/11"})
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects, the last to "+srv.URL+"/r/0") {
		t.Errorf("11 redirects: %v", err)
	}
}

// redirectChain serves /r/N, which redirects to /r/N-1, down to /r/0,
// which answers "end": a chain of N redirects, on loopback.
func redirectChain(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		if err != nil || n == 0 {
			w.Write([]byte("end"))
			return
		}
		http.Redirect(w, r, "/r/"+strconv.Itoa(n-1), http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	return srv
}
