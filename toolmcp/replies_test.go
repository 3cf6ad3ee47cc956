package toolmcp

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMountRepliesBounded: the client's answers to a server's requests
// (here 100 pings sent on the stream of tools/list) are posted at most
// maxReplies at once, each for ReplyTimeout at most: a server that
// never answers those POSTs had the client hold one connection and
// goroutine for each of its requests, for ever, as many as it sent.
func TestMountRepliesBounded(t *testing.T) {
	t.Parallel() // it waits: for timeouts, or for other processes
	const replyTimeout = 500 * time.Millisecond
	const pings = 100
	var held, most, ended atomic.Int64
	release := make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(release) })
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var msg struct {
			ID     json.RawMessage  `json:"id"`
			Method *json.RawMessage `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &msg)
		switch {
		case msg.Method == nil: // an answer to a ping: never answered
			n := held.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			select {
			case <-r.Context().Done():
				ended.Add(1)
			case <-release:
			}
			held.Add(-1)
			return
		case len(msg.ID) == 0:
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var method string
		_ = json.Unmarshal(*msg.Method, &method)
		switch method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"pinger","version":"v0"}}}`, msg.ID)
		case "tools/list":
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range pings {
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"p%d\",\"method\":\"ping\"}\n\n", i)
			}
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[{\"name\":\"t\",\"description\":\"A tool.\",\"inputSchema\":{\"type\":\"object\"}}]}}\n\n", msg.ID)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, msg.ID)
		}
	}))
	defer ts.Close()
	m := mount(t, []string{"p=" + ts.URL}, &MountOptions{ReplyTimeout: replyTimeout})
	if len(m.Tools()) != 1 {
		t.Fatalf("tools %v", m.Names())
	}
	time.Sleep(replyTimeout + 500*time.Millisecond)
	if n := most.Load(); n > maxReplies {
		t.Errorf("%d answers posted at once; want at most %d", n, maxReplies)
	}
	if n := ended.Load(); n == 0 {
		t.Errorf("no answer was given up after %s", replyTimeout)
	}
	once.Do(func() { close(release) })
}
