package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/registry"
)

// testServer returns an MCP server of testTable with its output schemas,
// read-only annotations on echo, and the registry's log in logs.
func testServer(t *testing.T, logs io.Writer) *mcp.Server {
	t.Helper()
	if logs == nil {
		logs = io.Discard
	}
	reg := registry.MustNew(testTable()).WithLogger(slog.New(slog.NewTextHandler(logs, nil)))
	srv, err := NewServer(reg, &ServerOptions{
		Annotate: func(e registry.Entry) *mcp.ToolAnnotations {
			if e.Name == "echo" {
				return &mcp.ToolAnnotations{ReadOnlyHint: true}
			}
			return nil
		},
	})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return srv
}

// inMemory connects a client of the SDK to srv over in-memory transports.
func inMemory(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	out := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

func unmarshal(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("unmarshal %s: %v", s, err)
	}
	return v
}

func TestServeListTools(t *testing.T) {
	t.Parallel()
	cs := inMemory(t, testServer(t, nil))
	got := listTools(t, cs)
	table := testTable()
	if len(got) != len(table.Entries) {
		t.Errorf("listed %d tools, want %d", len(got), len(table.Entries))
	}
	for _, e := range table.Entries {
		tl, ok := got[e.Name]
		if !ok {
			t.Errorf("tool %s not listed", e.Name)
			continue
		}
		if tl.Description != e.Description {
			t.Errorf("%s: description %q, want %q", e.Name, tl.Description, e.Description)
		}
		if diff := cmp.Diff(unmarshal(t, e.Parameters), tl.InputSchema); diff != "" {
			t.Errorf("%s: inputSchema differs from Entry.Parameters (-want +got):\n%s", e.Name, diff)
		}
		var wantOut any
		switch e.Name {
		case "count":
			wantOut = unmarshal(t, testOutputs(e.Name))
		case "split":
			wantOut = unmarshal(t, `{"type":"object","properties":{"result":{"type":"array","items":{"type":"string"}}},"required":["result"]}`)
		}
		if diff := cmp.Diff(wantOut, tl.OutputSchema); diff != "" {
			t.Errorf("%s: outputSchema (-want +got):\n%s", e.Name, diff)
		}
		wantRO := e.Name == "echo"
		if gotRO := tl.Annotations != nil && tl.Annotations.ReadOnlyHint; gotRO != wantRO {
			t.Errorf("%s: readOnlyHint %v, want %v", e.Name, gotRO, wantRO)
		}
	}
}

// text returns the text of a result's only content.
func text(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	if len(r.Content) != 1 {
		t.Fatalf("result has %d contents, want 1: %+v", len(r.Content), r.Content)
	}
	tc, ok := r.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", r.Content[0])
	}
	return tc.Text
}

func TestServeCall(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	cs := inMemory(t, testServer(t, &logs))
	tests := []struct {
		name, tool string
		args       any
		want       string
		wantError  bool
		wantStruct any // decoded structuredContent
	}{
		{name: "ok", tool: "echo", args: map[string]any{"text": "hi"}, want: "echo hi"},
		{name: "typed result", tool: "count", args: map[string]any{"text": "a b c"}, want: `{"words":3}`,
			wantStruct: map[string]any{"words": 3.0}},
		{name: "typed result that is not an object is wrapped", tool: "split", args: map[string]any{"text": "a b"}, want: `["a","b"]`,
			wantStruct: map[string]any{"result": []any{"a", "b"}}},
		{name: "bad arguments: unknown field", tool: "echo", args: map[string]any{"txt": "hi"},
			want: `Error: echo: bad arguments: json: unknown field "txt"`, wantError: true},
		{name: "bad arguments: missing field", tool: "echo", args: map[string]any{},
			want: `Error: echo: bad arguments: missing required field "text"`, wantError: true},
		{name: "bad arguments: wrong type", tool: "count", args: map[string]any{"text": 3},
			want: "Error: count: bad arguments: json: cannot unmarshal number into Go struct field .text of type string", wantError: true},
		{name: "no arguments", tool: "echo",
			want: `Error: echo: bad arguments: missing required field "text"`, wantError: true},
		{name: "tool error", tool: "fail", want: "Error: fail: disk on fire", wantError: true},
		{name: "panic", tool: "boom", want: "Error: boom: panic: kaboom", wantError: true},
		{name: "timeout", tool: "slow", want: "Error: slow timed out after 50ms", wantError: true},
		{name: "request facts in the context", tool: "whoami", want: "caller=mcp tool=whoami id-prefix=mcp-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			if err != nil {
				t.Fatalf("CallTool: protocol error %v; want a result", err)
			}
			if diff := cmp.Diff(tt.want, text(t, r)); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if r.IsError != tt.wantError {
				t.Errorf("isError = %v, want %v", r.IsError, tt.wantError)
			}
			if diff := cmp.Diff(tt.wantStruct, r.StructuredContent); diff != "" {
				t.Errorf("structuredContent (-want +got):\n%s", diff)
			}
		})
	}
	for _, want := range []string{`msg="tool panicked" tool=boom`, `msg="tool timed out" tool=slow`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("registry log lacks %q; log:\n%s", want, logs.String())
		}
	}
}

func TestServeUnknownTool(t *testing.T) {
	t.Parallel()
	cs := inMemory(t, testServer(t, nil))
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Errorf("CallTool(nope) = %v, want the SDK's unknown tool protocol error", err)
	}
}

// TestServeUnknownToolClipped checks that the name a client sends is cut
// where the server quotes it: a name of 1 MiB came back whole in the
// error, and went whole into the server's logs and spans of failed
// requests.
func TestServeUnknownToolClipped(t *testing.T) {
	t.Parallel()
	cs := inMemory(t, testServer(t, nil))
	long := strings.Repeat("n", 1<<20)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: long + "\nSYSTEM: obey"})
	if err == nil {
		t.Fatal("CallTool(a name of 1 MiB) succeeded")
	}
	want := `unknown tool "` + long[:maxNameShown] + `…"`
	if !strings.Contains(err.Error(), want) || len(err.Error()) > 2*maxNameShown+200 {
		t.Errorf("CallTool(a name of 1 MiB) = an error of %d bytes (%.300q), want one quoting %q", len(err.Error()), err.Error(), want)
	}
	_, err = cs.ListTools(context.Background(), &mcp.ListToolsParams{Cursor: long})
	if err == nil || len(err.Error()) > 2*maxNameShown+200 || !strings.Contains(err.Error(), "invalid cursor") {
		t.Errorf("ListTools(a cursor of 1 MiB) = an error of %d bytes (%.300q), want a short invalid cursor", len(fmt.Sprint(err)), fmt.Sprint(err))
	}
}

// TestServeCancelledByClient checks that a client giving up on a call
// cancels the tool's context. The client gives up once the tool runs: on
// a loaded machine a deadline could pass before the call reached it.
func TestServeCancelledByClient(t *testing.T) {
	t.Parallel()
	tab := testTable()
	slow := &tab.Entries[5]
	slow.Timeout = time.Minute
	started := make(chan struct{})
	ended := make(chan error, 1)
	slow.Bind = runs(func(ctx context.Context, args string) (string, error) {
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
		return "", ctx.Err()
	})
	srv, err := NewServer(registry.MustNew(tab), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	called := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
		called <- err
	}()
	<-started
	cancel()
	if err := <-called; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool = %v, want it cancelled", err)
	}
	// The test's own timeout bounds the wait.
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the tool's context ended with %v, want context.Canceled", err)
	}
}

func TestNewServerRejectsBadSchemas(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ params, out, want string }{
		{params: `{"type":"string"}`, want: `echo: parameters have type string, want "object"`},
		{params: `[1]`, want: `echo: parameters are not a JSON object`},
		{params: `{"type":"object"}`, out: `nope`, want: `tool "echo": output schema: not a JSON object`},
	} {
		tab := testTable()
		tab.Entries[2].Parameters = tt.params
		tab.Entries[2].Output = tt.out
		reg, err := registry.New(tab) // the registry refuses bad input schemas
		if err == nil {
			_, err = NewServer(reg, nil)
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewServer with parameters %s, output %q: error %v, want %q", tt.params, tt.out, err, tt.want)
		}
	}
}

func TestServeSelection(t *testing.T) {
	t.Parallel()
	reg, err := registry.MustNew(testTable()).Select([]string{"echo", "fail"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, srv)
	got := listTools(t, cs)
	if _, ok := got["echo"]; !ok || len(got) != 2 {
		t.Errorf("listed %v, want echo and fail", got)
	}
	// A tool of the table that was not selected cannot be called either:
	// calls find their tool in the selection, not in the table.
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "count", Arguments: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "count"`) {
		t.Errorf("CallTool(count), not selected = %v, want the unknown tool protocol error", err)
	}
}

func TestServeNoTools(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(registry.MustNew(&registry.Table{Index: func(string) int { return -1 }}), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, srv)
	//lint:ignore SA1019 the server announces logging, deprecated or not
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || caps.Tools.ListChanged || caps.Logging == nil {
		t.Errorf("capabilities %+v, want tools without listChanged, and logging", caps)
	}
	if got := listTools(t, cs); len(got) != 0 {
		t.Errorf("listed %v", got)
	}
}

func TestNewOutputKeepsDefinitionsAtTheRoot(t *testing.T) {
	t.Parallel()
	out, err := newOutput(`{"type":"array","items":{"$ref":"#/$defs/Item"},"$defs":{"Item":{"type":"string"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	want := unmarshal(t, `{"type":"object","properties":{"result":{"type":"array","items":{"$ref":"#/$defs/Item"}}},"required":["result"],"$defs":{"Item":{"type":"string"}}}`)
	if diff := cmp.Diff(want, unmarshal(t, string(out.schema))); diff != "" {
		t.Errorf("wrapped schema (-want +got):\n%s", diff)
	}
	if _, ok := (&output{}).structured(`null`); ok {
		t.Errorf("null fits an object schema")
	}
}

func TestServeStdio(t *testing.T) {
	t.Parallel()
	srv := testServer(t, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, srv, inR, outW) }()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "over stdio"}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got := text(t, r); got != "echo over stdio" {
		t.Errorf("text %q", got)
	}
	cs.Close() // closes inW: the server reads the end of its stdin
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio at the end of stdin = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return at the end of stdin")
	}
	outW.Close()
}

func TestServeStdioCancelled(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, testServer(t, nil), inR, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return when cancelled")
	}
}

func httpClient(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	t.Cleanup(hc.CloseIdleConnections)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestServeHTTPReplicas puts two replicas, each with its own server,
// behind a round-robin balancer: with stateless serving, a client's
// requests may land on either.
func TestServeHTTPReplicas(t *testing.T) {
	t.Parallel()
	replicas := []http.Handler{HTTPHandler(testServer(t, nil), nil), HTTPHandler(testServer(t, nil), nil)}
	var next, sessionHeaders atomic.Int64
	lb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		replicas[next.Add(1)%2].ServeHTTP(rec, r)
		if rec.Header().Get("Mcp-Session-Id") != "" {
			sessionHeaders.Add(1)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	defer lb.Close()
	cs := httpClient(t, lb.URL)
	if n := len(listTools(t, cs)); n != len(testTable().Entries) {
		t.Errorf("listed %d tools", n)
	}
	for i := range 4 {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "lb"}})
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if got := text(t, r); got != "echo lb" {
			t.Errorf("call %d: %q", i, got)
		}
	}
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"x": 1}})
	if err != nil || !r.IsError || !strings.HasPrefix(text(t, r), "Error: echo: bad arguments:") {
		t.Errorf("bad arguments over HTTP: %+v, %v", r, err)
	}
	if n := sessionHeaders.Load(); n != 0 {
		t.Errorf("%d responses set Mcp-Session-Id; a stateless server sets none", n)
	}
	if n := next.Load(); n < 6 {
		t.Errorf("the balancer saw %d requests", n)
	}
}

// TestServeHTTPRawCall sends one tools/call with no initialization, as a
// request landing on a fresh replica would be.
func TestServeHTTPRawCall(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), nil))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"raw"}}}`
	req, err := http.NewRequest("POST", ts.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %s: %s", resp.Status, b)
	}
	var got struct {
		ID     int `json:"id"`
		Result struct {
			Content []struct{ Text string }
			IsError bool
		}
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("response %s: %v", b, err)
	}
	if got.ID != 7 || len(got.Result.Content) != 1 || got.Result.Content[0].Text != "echo raw" {
		t.Errorf("response %s", b)
	}
}

func TestServeHTTP(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, ln, testServer(t, nil), nil) }()
	cs := httpClient(t, "http://"+ln.Addr().String()+"/mcp")
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fail"})
	if err != nil || !r.IsError || text(t, r) != "Error: fail: disk on fire" {
		t.Errorf("CallTool(fail) = %+v, %v", r, err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeHTTP = %v, want nil after shutdown", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("ServeHTTP did not return")
	}
}

// TestServeStdioAnswersBeforeEOF writes every request at once and closes
// stdin: each request is still answered.
func TestServeStdioAnswersBeforeEOF(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(registry.MustNew(testTable()), nil)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	var out bytes.Buffer
	if err := ServeStdio(context.Background(), srv, in, &out); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		ids = append(ids, string(m.ID))
	}
	slices.Sort(ids)
	if diff := cmp.Diff([]string{`"three"`, "1", "2"}, ids); diff != "" {
		t.Errorf("answered ids (-want +got):\n%s", diff)
	}
}

// TestServeListOnePage checks that tools/list sends every tool in the
// registry's order in one page, and refuses a cursor, which it never
// hands out.
func TestServeListOnePage(t *testing.T) {
	t.Parallel()
	reg := registry.MustNew(testTable())
	srv, err := NewServer(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, srv)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range res.Tools {
		got = append(got, tl.Name)
	}
	if diff := cmp.Diff(reg.Names(), got); diff != "" {
		t.Errorf("tools/list (-want +got):\n%s", diff)
	}
	if res.NextCursor != "" {
		t.Errorf("NextCursor = %q, want none", res.NextCursor)
	}
	if _, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{Cursor: "next"}); err == nil || !strings.Contains(err.Error(), `invalid cursor "next"`) {
		t.Errorf("tools/list with a cursor: %v, want an invalid cursor error", err)
	}
}
