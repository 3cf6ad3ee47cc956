package toolmcp

//lint:file-ignore SA1019 MCP logging and roots are deprecated as of protocol 2026-07-28 and functional for at least twelve months; toolreg serves and mounts servers that speak the earlier versions

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
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// progressServer serves testTable with a "slow" tool that reports
// progress 1, 2, 2 (dropped: no increase), 3 of 3, then answers "done".
func progressServer(t *testing.T) *mcp.Server {
	t.Helper()
	tab := testTable()
	tab.Entries[5].Bind = runs(func(ctx context.Context, args string) (string, error) {
		for _, d := range []float64{1, 2, 2, 3} {
			tool.Progress(ctx, d, 3, "step")
		}
		return "done", nil
	})
	srv, err := NewServer(registry.MustNew(tab), nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

type progressSeen struct {
	Token    any     `json:"progressToken"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

var wantProgress = []progressSeen{{"p1", 1, 3, "step"}, {"p1", 2, 3, "step"}, {"p1", 3, 3, "step"}}

// TestHTTPProgress calls a tool that reports progress with a progress
// token: the answer is a stream of its notifications/progress, each
// greater than the last, then the result. Without a token the answer is
// plain JSON and carries no notification.
func TestHTTPProgress(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(HTTPHandler(progressServer(t), nil))
	defer ts.Close()
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":"p1"}}}`
	status, h, body := post(t, ts.Client(), ts.URL, call)
	if status != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d, Content-Type %q, want 200 and an event stream: %s", status, h.Get("Content-Type"), body)
	}
	var got []progressSeen
	var result string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var msg struct {
			Method string          `json:"method"`
			Params progressSeen    `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(data), &msg); err != nil {
			t.Fatalf("event %s: %v", data, err)
		}
		switch {
		case msg.Method == "notifications/progress":
			got = append(got, msg.Params)
		case msg.Result != nil:
			result = string(msg.Result)
		}
	}
	if diff := cmp.Diff(wantProgress, got); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if !strings.Contains(result, `"text":"done"`) {
		t.Errorf("result %s, want done", result)
	}

	status, h, body = post(t, ts.Client(), ts.URL, strings.Replace(call, `,"_meta":{"progressToken":"p1"}`, "", 1))
	if status != http.StatusOK || h.Get("Content-Type") != "application/json" || strings.Contains(body, "progress") {
		t.Errorf("without a token: status %d, Content-Type %q, %s; want plain JSON without progress", status, h.Get("Content-Type"), body)
	}
}

// TestProgressSession receives the progress of a call over a session (as
// over stdio).
func TestProgressSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	seen := make(chan progressSeen, 10)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := progressServer(t).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			seen <- progressSeen{r.Params.ProgressToken, r.Params.Progress, r.Params.Total, r.Params.Message}
		},
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	p := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
	p.SetProgressToken("p1")
	if _, err := cs.CallTool(ctx, p); err != nil {
		t.Fatal(err)
	}
	var got []progressSeen
	for range wantProgress {
		got = append(got, <-seen)
	}
	if diff := cmp.Diff(wantProgress, got); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

// TestLoggingSetLevel: over stdio, with a protocol version that has
// logging/setLevel, the server sends its own messages about calls once the
// client sets a level, and none before.
func TestLoggingSetLevel(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(context.Background(), testServer(t, nil), inR, outW)
		outW.Close()
	}()
	out := bufio.NewScanner(outR)
	var notes []string
	// send writes a line and, for a request, reads up to its answer,
	// keeping the notifications on the way.
	send := func(line, id string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		for id != "" && out.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Level  string          `json:"level"`
					Logger string          `json:"logger"`
					Data   json.RawMessage `json:"data"`
				} `json:"params"`
			}
			if err := json.Unmarshal(out.Bytes(), &m); err != nil {
				t.Fatalf("%s: %v", out.Text(), err)
			}
			if m.Method == "notifications/message" {
				notes = append(notes, m.Params.Level+" "+m.Params.Logger+" "+string(m.Params.Data))
			}
			if string(m.ID) == id {
				return
			}
		}
	}
	init, initialized, _ := strings.Cut(strings.TrimSpace(stdioInit), "\n")
	send(init, `"init"`)
	send(initialized, "")
	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}}`, "1")
	send(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`, "2")
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"count","arguments":{"text":"a b"}}}`, "3")
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	for out.Scan() {
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "debug toolreg ") || !strings.Contains(notes[0], `"msg":"mcp: tool call"`) || !strings.Contains(notes[0], `"tool":"count"`) {
		t.Errorf("log messages %q, want one: the debug record of the count call", notes)
	}
}

// TestLoggingRequestLevel: with the current protocol the level comes with
// each request (_meta), over a session as over stateless HTTP, where the
// answer then streams the messages before the result.
func TestLoggingRequestLevel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	logs := make(chan string, 10)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := testServer(t, nil).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(r.Params.Data)
			logs <- string(r.Params.Level) + " " + r.Params.Logger + " " + string(b)
		},
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "a"}}); err != nil {
		t.Fatal(err)
	}
	p := &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"text": "a b"}, Meta: mcp.Meta{mcp.MetaKeyLogLevel: "debug"}}
	if _, err := cs.CallTool(ctx, p); err != nil {
		t.Fatal(err)
	}
	// The first message is about the call made with a level.
	if got := <-logs; !strings.HasPrefix(got, "debug toolreg ") || !strings.Contains(got, `"msg":"mcp: tool call"`) || !strings.Contains(got, `"tool":"count"`) {
		t.Errorf("first log message %s, want the debug record of the count call", got)
	}

	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), nil))
	defer ts.Close()
	hc, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(r.Params.Data)
			logs <- "http " + string(r.Params.Level) + " " + string(b)
		},
	}).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: ts.Client(), DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Close()
	if _, err := hc.CallTool(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := <-logs; !strings.HasPrefix(got, "http debug ") || !strings.Contains(got, `"tool":"count"`) {
		t.Errorf("over HTTP, first log message %s, want the debug record of the count call", got)
	}
}

// TestToolsListCacheScope: tools/list carries a valid cacheScope, as the
// current schema requires (an empty one is invalid).
func TestToolsListCacheScope(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), nil))
	defer ts.Close()
	_, _, body := post(t, ts.Client(), ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var r struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	if got := string(r.Result["cacheScope"]); got != `"public"` {
		t.Errorf("cacheScope %s, want \"public\" (%s)", got, body)
	}
}

// TestHTTPParseError: a body that is not JSON is answered with a JSON-RPC
// parse error, not a plain-text 400.
func TestHTTPParseError(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), nil))
	defer ts.Close()
	for _, body := range []string{`{"jsonrpc":`, `not json`, `{"a":1}{"b":2}`} {
		status, h, got := post(t, ts.Client(), ts.URL, body)
		var r struct {
			ID    json.RawMessage `json:"id"`
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if status != http.StatusBadRequest || h.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(got), &r) != nil ||
			r.Error.Code != -32700 || string(r.ID) != "null" {
			t.Errorf("%q: status %d, Content-Type %q, %s; want 400 with a JSON-RPC error -32700, id null", body, status, h.Get("Content-Type"), got)
		}
	}
}

// TestHTTPCancelled posts notifications/cancelled for a call in flight:
// the tool's context ends, as over stdio. A cancellation sent with
// another Authorization header (another client) does not touch it.
func TestHTTPCancelled(t *testing.T) {
	t.Parallel()
	reg, _, started, ended := slowServer(t)
	srv, err := NewServer(reg(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(HTTPHandler(srv, nil))
	defer ts.Close()
	answered := make(chan string, 1)
	go func() {
		_, _, body := post(t, ts.Client(), ts.URL, slowCall, "Authorization", "Bearer a")
		answered <- body
	}()
	<-started
	cancel := func(auth, reason string) {
		status, _, body := post(t, ts.Client(), ts.URL,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.0,"reason":"`+reason+`"}}`, "Authorization", auth)
		if status != http.StatusAccepted {
			t.Errorf("cancellation: status %d, %s; want 202", status, body)
		}
	}
	cancel("Bearer b", "by another")
	cancel("Bearer a", "by its client")
	err = <-ended
	if !errors.Is(err, context.Canceled) || err.Error() != "cancelled by the client: by its client" {
		t.Errorf("the tool's context ended with %v, want the client's cancellation", err)
	}
	<-answered
}

// TestHTTPProgressRedacted: a progress message reaches the client through
// the registry's redactor, as the call's result does: a tool (or a mounted
// server, which echoes the key it was given) that names a secret in its
// progress handed it to every MCP client that asked for progress.
func TestHTTPProgressRedacted(t *testing.T) {
	t.Parallel()
	const key = "brv-0123456789abcdefghij"
	tab := testTable()
	tab.Entries[5].Bind = runs(func(ctx context.Context, args string) (string, error) {
		tool.Progress(ctx, 1, 2, "GET https://api.example/search?q=x&k="+key)
		return "done with " + key, nil
	})
	reg := registry.MustNew(tab).WithRedact(func(s string) string { return strings.ReplaceAll(s, key, "[REDACTED]") })
	srv, err := NewServer(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(HTTPHandler(srv, nil))
	defer ts.Close()
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":"p1"}}}`
	status, _, body := post(t, ts.Client(), ts.URL, call)
	if status != http.StatusOK || !strings.Contains(body, "notifications/progress") || !strings.Contains(body, "done with [REDACTED]") {
		t.Fatalf("status %d, want 200, a progress notification and the result: %s", status, body)
	}
	if strings.Contains(body, key) {
		t.Errorf("the client got the key:\n%s", body)
	}
}

// TestHTTPUnreadAnswer calls a tool that reports progress without end
// (until its context is done) from a client that never reads the event
// stream: once the connection's buffers are full, a write waits no longer
// than WriteTimeout, and then the call ends, its context cancelled (by
// net/http, for the write that failed), where
// the tool would otherwise hang in its report for as long as the client
// keeps the connection open. The buffers are made small, so that a few
// reports fill them.
func TestHTTPUnreadAnswer(t *testing.T) {
	t.Parallel()
	ended := make(chan error, 1)
	tab := testTable()
	tab.Entries[5].Timeout = time.Hour
	tab.Entries[5].Bind = runs(func(ctx context.Context, args string) (string, error) {
		msg := strings.Repeat("x", 16<<10)
		for i := 1; ctx.Err() == nil; i++ {
			tool.Progress(ctx, float64(i), 0, msg)
		}
		ended <- context.Cause(ctx)
		return "", ctx.Err()
	})
	srv, err := NewServer(registry.MustNew(tab), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(HTTPHandler(srv, &HTTPOptions{WriteTimeout: 50 * time.Millisecond}))
	ts.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			_ = c.(*net.TCPConn).SetWriteBuffer(4 << 10)
		}
	}
	ts.Start()
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":"p1"}}}`
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s",
		ts.Listener.Addr(), len(call), call)
	// The client reads nothing.
	cause := <-ended
	if !errors.Is(cause, context.Canceled) {
		t.Errorf("the call ended with %v, want it cancelled", cause)
	}
}

// TestServeHTTPLongCall answers a call that takes longer than
// WriteTimeout: the bound is of each write, not of the answer, nor of the
// server's connection.
func TestServeHTTPLongCall(t *testing.T) {
	reg, release, started, ended := slowServer(t)
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
	const timeout = 20 * time.Millisecond
	go func() { served <- ServeHTTP(ctx, ln, srv, &HTTPOptions{WriteTimeout: timeout}) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	c := &http.Client{Transport: &http.Transport{}}
	defer c.CloseIdleConnections()
	url := "http://" + ln.Addr().String()
	for range 2 { // the second on the kept-alive connection, after the first's deadline
		answer := make(chan string, 1)
		go func() {
			status, _, body := post(t, c, url, slowCall)
			answer <- fmt.Sprint(status, " ", body)
		}()
		<-started
		time.Sleep(5 * timeout)
		release <- struct{}{}
		<-ended
		if got := <-answer; !strings.HasPrefix(got, "200 ") || !strings.Contains(got, `"text":"done"`) {
			t.Errorf("a call longer than WriteTimeout: %s, want 200 and done", got)
		}
	}
}

// TestHTTPBatch: the requests of a batch, which the SDK takes from a
// client of protocol 2025-03-26 (no Mcp-Protocol-Version), are held to
// what a request alone is: refused with 503 during a drain and with 403
// for a token without a tool's scopes, and ended by the client's
// notifications/cancelled. A batch went past all three: a call started
// during the drain, a call could not be cancelled, and a token without
// the scopes got an isError result where a client expects the 403 to step
// up from.
func TestHTTPBatch(t *testing.T) {
	t.Parallel()
	batch := func(calls ...string) string { return "[" + strings.Join(calls, ",") + "]" }
	ping := `{"jsonrpc":"2.0","id":9,"method":"ping"}`
	postOld := func(t *testing.T, ts *httptest.Server, body string, header ...string) (int, string) {
		t.Helper()
		req, err := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	t.Run("drain", func(t *testing.T) {
		srv, err := NewServer(registry.MustNew(testTable()), nil)
		if err != nil {
			t.Fatal(err)
		}
		var draining atomic.Bool
		draining.Store(true)
		o := (&HTTPOptions{}).withDefaults()
		ts := httptest.NewServer(newFront(srv, &o, &draining).outer)
		defer ts.Close()
		if status, body := postOld(t, ts, batch(ping, rawCall)); status != http.StatusServiceUnavailable || strings.Contains(body, "echo raw") {
			t.Errorf("a batch during the drain: %d %s; want 503", status, body)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		reg, _, started, ended := slowServer(t)
		srv, err := NewServer(reg(), nil)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(HTTPHandler(srv, nil))
		defer ts.Close()
		answered := make(chan string, 1)
		go func() {
			_, body := postOld(t, ts, batch(ping, slowCall))
			answered <- body
		}()
		<-started
		postOld(t, ts, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"no more"}}`)
		if err := <-ended; !errors.Is(err, context.Canceled) || err.Error() != "cancelled by the client: no more" {
			t.Errorf("the tool's context ended with %v, want the client's cancellation", err)
		}
		<-answered
	})
	t.Run("scope", func(t *testing.T) {
		iss := newFakeIssuer(t)
		srv, opts := scopedServer(t, iss, tool.Exec)
		ts := httptest.NewServer(HTTPHandler(srv, opts))
		defer ts.Close()
		token := iss.token(t, jwt.MapClaims{"iss": iss.URL, "aud": scopedResource, "exp": time.Now().Add(time.Hour).Unix(), "scope": "tools:network"}, nil)
		if status, body := postOld(t, ts, batch(ping, rawCall), "Authorization", "Bearer "+token); status != http.StatusForbidden || !strings.Contains(body, "lacks the scope tools:exec") {
			t.Errorf("a batch with a call the token may not make: %d %s; want 403", status, body)
		}
	})
}

// TestHTTPKeysAsTheSDKReads: the front reads a message's keys as the SDK
// does, exactly: encoding/json matched them whatever their case, so a
// second key "ID" (null) or "Name" made the front read another message
// than the SDK ran: a request taken for a notification went past the
// drain, and a call of a tool the token may not call past the scopes'
// 403.
func TestHTTPKeysAsTheSDKReads(t *testing.T) {
	t.Parallel()
	ts, draining, token := scopedFront(t)
	type answer struct {
		Status int
		Ran    bool // answered with a result
	}
	var got []answer
	for _, tt := range []struct {
		call  string
		drain bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","Name":"count","arguments":{"text":"raw"}}}`, false},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","Method":"ping","params":{"name":"echo","arguments":{"text":"raw"}}}`, false},
		{`{"jsonrpc":"2.0","id":7,"ID":null,"method":"tools/call","params":{"name":"count","arguments":{"text":"raw"}}}`, true},
	} {
		draining.Store(tt.drain)
		status, _, body := post(t, ts.Client(), ts.URL, tt.call, "Authorization", token)
		got = append(got, answer{status, strings.Contains(body, `"result"`)})
	}
	want := []answer{{http.StatusForbidden, false}, {http.StatusForbidden, false}, {http.StatusServiceUnavailable, false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestHTTPBatchBounded: a batch of up to MaxBatch messages is answered, a
// longer one refused with 400 and -32600 before anything decodes it. The
// SDK decoded and handled every message of a batch, which cost 60 times
// its size in memory (1 MiB of {} held 63 MiB) and 2 s of a processor
// for 1 MiB of notifications, of a request any client could send
// sixteen at once.
func TestHTTPBatchBounded(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(registry.MustNew(testTable()), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(HTTPHandler(srv, nil))
	defer ts.Close()
	batch := func(n int) string {
		pings := make([]string, n)
		for i := range pings {
			pings[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)
		}
		return "[" + strings.Join(pings, ",") + "]"
	}
	type answer struct {
		Status, Answers int
		Code            int64
	}
	var got []answer
	for _, n := range []int{MaxBatch, MaxBatch + 1} {
		status, _, body := post(t, ts.Client(), ts.URL, batch(n), "Mcp-Protocol-Version", "2025-03-26")
		a := answer{Status: status}
		var list []json.RawMessage
		var one struct {
			Error struct{ Code int64 } `json:"error"`
		}
		if json.Unmarshal([]byte(body), &list) == nil {
			a.Answers = len(list)
		} else if json.Unmarshal([]byte(body), &one) == nil {
			a.Code = one.Error.Code
		}
		got = append(got, a)
	}
	want := []answer{{Status: http.StatusOK, Answers: MaxBatch}, {Status: http.StatusBadRequest, Code: jsonrpc.CodeInvalidRequest}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("batches of %d and %d (-want +got):\n%s", MaxBatch, MaxBatch+1, diff)
	}
}
