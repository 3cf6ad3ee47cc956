package toolmcp

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// storm is a server of protocol 2025-06-18 with one tool whose standalone
// event stream (GET) ends at once, each time with a new event id and a
// reconnection delay of 1 ms: the SDK counts each as progress and
// reconnects when the server says. gets counts the GETs.
func storm(t *testing.T, gets *atomic.Int64) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			n := gets.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "id: %d\nretry: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"debug\",\"data\":\"x\"}}\n\n", n)
			return
		}
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		if json.Unmarshal(b, &msg) != nil || len(msg.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result string
		switch msg.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"storm","version":"v0"}}`
		case "tools/list":
			result = `{"tools":[{"name":"t","description":"A tool.","inputSchema":{"type":"object"}}]}`
		default:
			result = `{}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, result)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestMountReconnectBounded: a server whose event streams end as soon as
// they begin, each with a new event id and "retry: 1", has the client
// resume them at most once a second after a few at once, not a thousand
// times a second for as long as the session lasts.
func TestMountReconnectBounded(t *testing.T) {
	var gets atomic.Int64
	m := mount(t, []string{"s=" + storm(t, &gets)}, nil)
	start := time.Now()
	time.Sleep(1500 * time.Millisecond)
	n := gets.Load()
	m.Close()
	secs := time.Since(start).Seconds()
	if max := int64(resumeBurst) + int64(secs/resumeEvery.Seconds()) + 2; n > max {
		t.Errorf("%d GETs in %.1f s; want at most %d", n, secs, max)
	}
	if n < 2 {
		t.Errorf("%d GETs: the stream was not resumed at all", n)
	}
}
