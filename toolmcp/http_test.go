package toolmcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/registry"
)

const rawCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"raw"}}}`

// post sends body to url with the MCP headers and the extra header pairs,
// and returns the status, the response headers and the body.
func post(t *testing.T, c *http.Client, url, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestHTTPToken(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token-of-the-test"
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), &HTTPOptions{Token: token}))
	defer ts.Close()
	tests := []struct {
		name, auth string
		status     int
		challenge  string
	}{
		{"no token", "", http.StatusUnauthorized, `Bearer realm="mcp"`},
		{"wrong token", "Bearer " + token + "x", http.StatusUnauthorized, `Bearer realm="mcp", error="invalid_token"`},
		{"prefix of the token", "Bearer " + token[:10], http.StatusUnauthorized, `Bearer realm="mcp", error="invalid_token"`},
		{"wrong scheme", "Basic " + token, http.StatusUnauthorized, `Bearer realm="mcp", error="invalid_token"`},
		{"right token", "Bearer " + token, http.StatusOK, ""},
		{"scheme in lower case", "bearer " + token, http.StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h []string
			if tt.auth != "" {
				h = []string{"Authorization", tt.auth}
			}
			status, header, body := post(t, ts.Client(), ts.URL, rawCall, h...)
			if status != tt.status || header.Get("WWW-Authenticate") != tt.challenge {
				t.Errorf("status %d, WWW-Authenticate %q; want %d, %q (%s)", status, header.Get("WWW-Authenticate"), tt.status, tt.challenge, body)
			}
			if status == http.StatusOK && !strings.Contains(body, "echo raw") {
				t.Errorf("body %s", body)
			}
		})
	}
}

func TestHTTPOrigin(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), nil))
	defer ts.Close()
	tests := []struct {
		name   string
		header []string
		status int
	}{
		{"no origin (not a browser)", nil, http.StatusOK},
		{"same origin", []string{"Origin", ts.URL}, http.StatusOK},
		{"cross origin", []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"cross site fetch", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"rebound host name", []string{"Host", "evil.example"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(rawCall))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for i := 0; i+1 < len(tt.header); i += 2 {
				if tt.header[i] == "Host" {
					req.Host = tt.header[i+1]
					continue
				}
				req.Header.Set(tt.header[i], tt.header[i+1])
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
		})
	}
}

func TestHTTPBodyCap(t *testing.T) {
	t.Parallel() // it waits: for timeouts, or for other processes
	const max = 1000
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), &HTTPOptions{MaxBodyBytes: max}))
	defer ts.Close()
	for _, tt := range []struct {
		n      int
		status int
	}{{max - 1, http.StatusOK}, {max, http.StatusOK}, {max + 1, http.StatusRequestEntityTooLarge}} {
		body := padded(t, rawCall, tt.n)
		if status, _, b := post(t, ts.Client(), ts.URL, body); status != tt.status {
			t.Errorf("%d bytes: status %d, want %d (%s)", tt.n, status, tt.status, b)
		}
	}
}

// padded returns call, a JSON-RPC request, with a field added to it so
// that it has exactly n bytes.
func padded(t *testing.T, call string, n int) string {
	t.Helper()
	s := call[:len(call)-1]
	body := s + `,"x":"` + strings.Repeat("p", max(0, n-len(s)-len(`,"x":""}`))) + `"}`
	if len(body) != n {
		t.Fatalf("a call of %d bytes cannot be made from %s", n, call)
	}
	return body
}

// TestHTTPBodiesInFlight: the bodies of the requests in flight count
// against BodyBytesInFlight until they are answered, by their
// Content-Length, or by MaxBodyBytes for a body sent without one; a
// request that does not fit is answered 503 with Retry-After and its body
// is not read; once the calls in flight are answered, their bytes are
// free again.
func TestHTTPBodiesInFlight(t *testing.T) {
	t.Parallel()
	reg, release, started, ended := slowServer(t)
	srv, err := NewServer(reg(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const max = 1000
	ts := httptest.NewServer(HTTPHandler(srv, &HTTPOptions{MaxBodyBytes: max, BodyBytesInFlight: 2 * max}))
	defer ts.Close()
	held := make(chan int, 2)
	hold := func(n int) { // a slow call of n bytes, in flight until release
		body := padded(t, slowCall, n)
		go func() {
			req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			resp, err := ts.Client().Do(req)
			if err != nil {
				held <- 0
				return
			}
			resp.Body.Close()
			held <- resp.StatusCode
		}()
		<-started
	}
	want := func(what string, n, status int) {
		t.Helper()
		st, h, b := post(t, ts.Client(), ts.URL, padded(t, rawCall, n))
		if st != status {
			t.Errorf("%s: a call of %d bytes: status %d, want %d (%s)", what, n, st, status, b)
		}
		if status == http.StatusServiceUnavailable && h.Get("Retry-After") != "1" {
			t.Errorf("%s: 503 with Retry-After %q, want 1", what, h.Get("Retry-After"))
		}
	}

	hold(max) // max of 2*max left
	want("at what is left", max, http.StatusOK)
	want("below what is left", max-1, http.StatusOK)
	hold(max - 200) // 200 left
	want("past what is left", 201, http.StatusServiceUnavailable)
	want("at what is left", 200, http.StatusOK)

	// Without a Content-Length, a body counts as MaxBodyBytes.
	req, _ := http.NewRequest("POST", ts.URL, io.MultiReader(strings.NewReader(rawCall)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.ContentLength = -1 // sent chunked
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a call of unknown length with 200 bytes left: status %d, want 503", resp.StatusCode)
	}

	close(release)
	for range 2 {
		if err := <-ended; err != nil {
			t.Errorf("a slow call ended with %v", err)
		}
		if st := <-held; st != http.StatusOK {
			t.Errorf("a slow call was answered %d, want 200", st)
		}
	}
	want("once the calls in flight are answered", max, http.StatusOK)
}

// TestHTTPRequestsInFlight: the JSON-RPC requests being answered, each
// message of a batch counted, are bounded by MaxRequestsInFlight (raised
// to MaxBatch, so any batch fits an idle server): a request that would
// go past it is answered 503, Retry-After 1 and -32001, and does not run;
// once the requests in flight are answered there is room again. Before,
// only the bodies' bytes were bounded, which let hundreds of thousands of
// small calls wait at once.
func TestHTTPRequestsInFlight(t *testing.T) {
	t.Parallel()
	reg, release, started, ended := slowServer(t)
	srv, err := NewServer(reg(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(HTTPHandler(srv, &HTTPOptions{MaxRequestsInFlight: 1}))
	defer ts.Close()
	pings := func(n int) []string {
		p := make([]string, n)
		for i := range p {
			p[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i)
		}
		return p
	}
	batch := func(calls []string) string { return "[" + strings.Join(calls, ",") + "]" }
	held := make(chan int, 1)
	go func() { // MaxBatch-1 requests in flight until release
		st, _, _ := post(t, ts.Client(), ts.URL, batch(append(pings(MaxBatch-2), slowCall)), "Mcp-Protocol-Version", "2025-03-26")
		held <- st
	}()
	<-started

	type answer struct {
		Status     int
		RetryAfter string
		Code       int64
		Ran        bool
	}
	ask := func(body string) answer {
		st, h, b := post(t, ts.Client(), ts.URL, body, "Mcp-Protocol-Version", "2025-03-26")
		var e struct {
			Error struct{ Code int64 } `json:"error"`
		}
		json.Unmarshal([]byte(b), &e)
		return answer{st, h.Get("Retry-After"), e.Error.Code, strings.Contains(b, "echo raw")}
	}
	var got []answer
	got = append(got, ask(rawCall))                                    // at the bound: MaxBatch
	got = append(got, ask(batch(append(pings(1), rawCall))))           // past it by one
	got = append(got, ask(batch([]string{rawCall, rawCall, rawCall}))) // past it by two
	close(release)
	if err := <-ended; err != nil {
		t.Errorf("the slow call ended with %v", err)
	}
	if st := <-held; st != http.StatusOK {
		t.Errorf("the batch held in flight was answered %d, want 200", st)
	}
	full := ask(batch(append(pings(MaxBatch-1), rawCall))) // once answered: a whole batch
	got = append(got, answer{Status: full.Status, Ran: full.Ran})
	want := []answer{
		{Status: http.StatusOK, Ran: true},
		{Status: http.StatusServiceUnavailable, RetryAfter: "1", Code: codeBusy},
		{Status: http.StatusServiceUnavailable, RetryAfter: "1", Code: codeBusy},
		{Status: http.StatusOK, Ran: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers with %d requests in flight, then none (-want +got):\n%s", MaxBatch-1, diff)
	}
}

// TestHTTPStalledUpload announces a body and sends part of it: the server
// answers 408 once the read timeout passes instead of holding the
// connection.
func TestHTTPStalledUpload(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), &HTTPOptions{ReadTimeout: 100 * time.Millisecond}))
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", ts.Listener.Addr())
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled upload: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("status %d, want 408", resp.StatusCode)
	}
}

// slowServer returns a server whose "slow" tool waits for release (then
// answers "done") or for its context (then reports how it ended on ended).
func slowServer(t *testing.T) (srvOpts func() *registry.Registry, release chan struct{}, started, ended chan error) {
	release = make(chan struct{})
	started = make(chan error, 1)
	ended = make(chan error, 1)
	return func() *registry.Registry {
		tab := testTable()
		slow := &tab.Entries[5]
		slow.Timeout = time.Hour
		slow.Bind = runs(func(ctx context.Context, args string) (string, error) {
			started <- nil
			select {
			case <-release:
				ended <- nil
				return "done", nil
			case <-ctx.Done():
				ended <- context.Cause(ctx)
				return "", ctx.Err()
			}
		})
		return registry.MustNew(tab)
	}, release, started, ended
}

const slowCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}}`

// TestHTTPClientGoneCancels drops the connection of a call in flight: the
// tool's context is cancelled.
func TestHTTPClientGoneCancels(t *testing.T) {
	t.Parallel()
	reg, _, started, ended := slowServer(t)
	srv, err := NewServer(reg(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(HTTPHandler(srv, nil))
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL, strings.NewReader(slowCall))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	done := make(chan error, 1)
	go func() {
		resp, err := ts.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-started
	cancel()
	if err := <-ended; !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "client went away") {
		t.Errorf("the tool's context ended with %v, want the client going away", err)
	}
	<-done
}

// TestServeHTTPDrains ends the server's context with a call in flight (as
// SIGTERM does): while the call finishes, /readyz answers 503 and a new
// request is refused with 503 and a JSON-RPC error (the server is still
// reachable, so a load balancer learns it is going); the call in flight is
// answered, then the listener closes and ServeHTTP returns nil.
func TestServeHTTPDrains(t *testing.T) {
	t.Parallel()
	reg, release, started, _ := slowServer(t)
	srv, err := NewServer(reg(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeHTTP(ctx, ln, srv, nil) }()

	c := &http.Client{Transport: &http.Transport{}}
	get := func(path string) int {
		t.Helper()
		resp, err := c.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		if s := get(path); s != http.StatusOK {
			t.Errorf("%s: %d", path, s)
		}
	}
	answer := make(chan string, 1)
	go func() {
		_, _, body := post(t, c, url, slowCall)
		answer <- body
	}()
	<-started
	cancel()
	// The drain begins: /readyz turns 503 while the server still answers.
	for get("/readyz") != http.StatusServiceUnavailable {
		time.Sleep(time.Millisecond)
	}
	if s := get("/healthz"); s != http.StatusOK {
		t.Errorf("/healthz during the drain: %d, want 200", s)
	}
	status, h, body := post(t, c, url, rawCall)
	if status != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || !strings.Contains(body, `"code":-32000`) || !strings.Contains(body, `"id":7`) {
		t.Errorf("a new call during the drain: %d, Retry-After %q, %s; want 503 with a JSON-RPC error for id 7", status, h.Get("Retry-After"), body)
	}
	close(release)
	if body := <-answer; !strings.Contains(body, `"text":"done"`) {
		t.Errorf("the call in flight was answered %s", body)
	}
	if err := <-served; err != nil {
		t.Errorf("ServeHTTP = %v, want nil", err)
	}
	// The listener is closed: a new connection is refused.
	if conn, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		conn.Close()
		t.Error("the listener still accepts after ServeHTTP returned")
	}
}

// TestServeHTTPGraceExceeded cuts off a call that outlasts the grace
// period, and says so.
func TestServeHTTPGraceExceeded(t *testing.T) {
	reg, release, started, _ := slowServer(t)
	defer close(release)
	srv, err := NewServer(reg(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeHTTP(ctx, ln, srv, &HTTPOptions{ShutdownGrace: time.Millisecond}) }()
	go func() {
		req, _ := http.NewRequest("POST", "http://"+ln.Addr().String(), strings.NewReader(slowCall))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	err = <-served
	if err == nil || !strings.Contains(err.Error(), "cut off") {
		t.Errorf("ServeHTTP = %v, want an error saying calls were cut off", err)
	}
}

func TestHTTPOptionsDefaults(t *testing.T) {
	t.Parallel()
	got := (*HTTPOptions)(nil).withDefaults()
	got.Logger = nil
	want := HTTPOptions{MaxBodyBytes: DefaultMaxBodyBytes, BodyBytesInFlight: DefaultBodyBytesInFlight, ReadHeaderTimeout: DefaultReadHeaderTimeout,
		ReadTimeout: DefaultReadTimeout, IdleTimeout: DefaultIdleTimeout, WriteTimeout: DefaultWriteTimeout, ShutdownGrace: ShutdownTimeout,
		MaxRequestsInFlight: DefaultMaxRequestsInFlight}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	// BodyBytesInFlight is never less than MaxBodyBytes.
	for _, tt := range []struct{ set, want int64 }{{999, 1000}, {1000, 1000}, {1001, 1001}, {0, 16000}} {
		o := HTTPOptions{MaxBodyBytes: 1000, BodyBytesInFlight: tt.set}
		if got := o.withDefaults().BodyBytesInFlight; got != tt.want {
			t.Errorf("BodyBytesInFlight %d with MaxBodyBytes 1000: %d, want %d", tt.set, got, tt.want)
		}
	}
	// MaxRequestsInFlight is never less than MaxBatch.
	for _, tt := range []struct{ set, want int }{{MaxBatch - 1, MaxBatch}, {MaxBatch, MaxBatch}, {MaxBatch + 1, MaxBatch + 1}, {-1, DefaultMaxRequestsInFlight}} {
		o := HTTPOptions{MaxRequestsInFlight: tt.set}
		if got := o.withDefaults().MaxRequestsInFlight; got != tt.want {
			t.Errorf("MaxRequestsInFlight %d: %d, want %d", tt.set, got, tt.want)
		}
	}
}

// TestServeHTTPDrainsListens shuts down a server one of whose clients (the
// SDK's, of protocol 2026-07-28) keeps a subscriptions/listen stream
// open, as it does for as long as it is connected: the stream is not a
// call, so the drain does not wait for it, and ends it. The drain waited
// for it as for a call, the whole grace period, and then reported calls
// cut off (agent mcp exited 1 at each shutdown with such a client).
func TestServeHTTPDrainsListens(t *testing.T) {
	t.Parallel()
	reg := registry.MustNew(testTable())
	srv, err := NewServer(reg, &ServerOptions{Tools: func() *registry.Registry { return reg }})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeHTTP(ctx, ln, srv, &HTTPOptions{ShutdownGrace: 30 * time.Second}) }()
	// The client's listen stream is open once its answer begins.
	listening := make(chan struct{})
	var once sync.Once
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := tr.RoundTrip(r)
		if err == nil && r.Header.Get("Mcp-Method") == "subscriptions/listen" {
			once.Do(func() { close(listening) })
		}
		return resp, err
	})}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {}}).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String(), HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	<-listening
	cancel()
	if err := <-served; err != nil {
		t.Errorf("shut down with a client listening: %v", err)
	}
}
