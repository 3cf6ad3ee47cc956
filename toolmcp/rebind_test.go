package toolmcp

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"net/http/httptest"
)

// TestHTTPRebindingCannotCancel: a page whose host name was rebound to the
// loopback address the server listens on (its requests carry that host,
// and are same-origin for the browser) cannot cancel the calls in flight
// of the local client, which sends no token, by posting
// notifications/cancelled with their guessable ids: it is refused with
// 403 before anything reads it, as the SDK refuses its other requests.
func TestHTTPRebindingCannotCancel(t *testing.T) {
	t.Parallel()
	reg, release, started, ended := slowServer(t)
	srv, err := NewServer(reg(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(HTTPHandler(srv, nil))
	defer ts.Close()
	answered := make(chan string, 1)
	go func() {
		_, _, body := post(t, ts.Client(), ts.URL, slowCall)
		answered <- body
	}()
	<-started
	req, err := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"rebound"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "rebound.example:80"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Origin", "http://rebound.example")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("the rebound cancellation: status %d, want 403", resp.StatusCode)
	}
	select {
	case err := <-ended:
		t.Errorf("the call ended with %v: the rebound page cancelled it", err)
	case <-time.After(200 * time.Millisecond):
		close(release)
		if err := <-ended; err != nil {
			t.Errorf("the call ended with %v, want it answered", err)
		}
	}
	if body := <-answered; !strings.Contains(body, "done") {
		t.Errorf("answer %s, want done", body)
	}
}
