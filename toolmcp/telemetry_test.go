package toolmcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/telemetry"
)

// recorder keeps spans and metrics in memory.
type recorder struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	p      *telemetry.Providers
}

func newRecorder() *recorder {
	r := &recorder{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.p = &telemetry.Providers{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans)),
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader)),
	}
	return r
}

// span returns the one ended span named name.
func (r *recorder) span(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	var names []string
	for _, s := range r.spans.Ended() {
		names = append(names, s.Name())
		if s.Name() == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d spans named %q among %q, want 1", len(found), name, names)
	}
	return found[0]
}

func attrMap(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// durations returns the data points of a histogram as "count attrs",
// sorted.
func (r *recorder) durations(t *testing.T, name string) []string {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			if m.Unit != "s" {
				t.Errorf("%s has unit %q, want s", name, m.Unit)
			}
			for _, p := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				var parts []string
				for _, kv := range p.Attributes.ToSlice() {
					parts = append(parts, string(kv.Key)+"="+kv.Value.String())
				}
				out = append(out, fmt.Sprintf("n=%d %s", p.Count, strings.Join(parts, " ")))
			}
		}
	}
	slices.Sort(out)
	return out
}

func telemetryServer(t *testing.T, p *telemetry.Providers) *mcp.Server {
	t.Helper()
	srv, err := NewServer(registry.MustNew(testTable()), &ServerOptions{Telemetry: p})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestTelemetryServer calls the server through the SDK's client with a
// trace context in params._meta, and checks the server span, its parent
// and the duration metric; a failed call has the registry's error.type.
func TestTelemetryServer(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	cs := inMemory(t, telemetryServer(t, rec.p))
	parent := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{0xa1, 2, 3}, SpanID: trace.SpanID{0xb1, 2}, TraceFlags: trace.FlagsSampled,
	})
	meta := mcp.Meta{}
	rec.p.TextMapPropagator().Inject(trace.ContextWithSpanContext(t.Context(), parent), telemetry.MetaCarrier(meta))
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Meta: meta, Name: "echo", Arguments: map[string]any{"text": "hi"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"text": 3}}); err != nil {
		t.Fatal(err)
	}

	s := rec.span(t, "tools/call echo")
	if s.SpanKind() != trace.SpanKindServer {
		t.Errorf("kind %v, want server", s.SpanKind())
	}
	if s.Parent().SpanID() != parent.SpanID() || s.SpanContext().TraceID() != parent.TraceID() || !s.Parent().IsRemote() {
		t.Errorf("span %v has parent %v, want the remote %v", s.SpanContext(), s.Parent(), parent)
	}
	want := map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool"}
	if d := cmp.Diff(want, attrMap(s.Attributes())); d != "" {
		t.Errorf("echo span attributes (-want +got):\n%s", d)
	}
	failed := rec.span(t, "tools/call count")
	want = map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "count", "gen_ai.operation.name": "execute_tool", "error.type": "invalid_arguments"}
	if d := cmp.Diff(want, attrMap(failed.Attributes())); d != "" {
		t.Errorf("count span attributes (-want +got):\n%s", d)
	}
	if failed.Parent().IsValid() {
		t.Errorf("a call without _meta has parent %v, want none", failed.Parent())
	}
	got := rec.durations(t, "mcp.server.operation.duration")
	for _, w := range []string{
		"n=1 gen_ai.operation.name=execute_tool gen_ai.tool.name=echo mcp.method.name=tools/call",
		"n=1 error.type=invalid_arguments gen_ai.operation.name=execute_tool gen_ai.tool.name=count mcp.method.name=tools/call",
	} {
		if !slices.Contains(got, w) {
			t.Errorf("mcp.server.operation.duration lacks %q; has %q", w, got)
		}
	}
}

// TestTelemetryMountPropagates mounts a toolreg server over HTTP and calls
// its tool under a span: the server's span is the child of the client's
// "tools/call" span, whose parent is the caller's, across the process
// boundary (params._meta and the traceparent header).
func TestTelemetryMountPropagates(t *testing.T) {
	t.Parallel()
	serverRec, clientRec := newRecorder(), newRecorder()
	var mu sync.Mutex
	var headers []string
	h := HTTPHandler(telemetryServer(t, serverRec.p), &HTTPOptions{Telemetry: serverRec.p})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		headers = append(headers, r.Header.Get("traceparent"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	m := mount(t, []string{"up=" + ts.URL}, &MountOptions{Telemetry: clientRec.p})
	reg := joined(t, nil, m)

	ctx, root := clientRec.p.Tracer().Start(t.Context(), "root")
	res := reg.Call(ctx, "up__echo", `{"text":"hi"}`)
	root.End()
	if res.Failed() || res.Text != "echo hi" {
		t.Fatalf("call = %q, %v", res.Text, res.Err)
	}
	client := clientRec.span(t, "tools/call echo")
	server := serverRec.span(t, "tools/call echo")
	rootSpan := clientRec.span(t, "root")
	if client.Parent().SpanID() != rootSpan.SpanContext().SpanID() || client.SpanKind() != trace.SpanKindClient {
		t.Errorf("client span %v (kind %v) has parent %v, want root %v", client.SpanContext(), client.SpanKind(), client.Parent(), rootSpan.SpanContext())
	}
	if server.Parent().SpanID() != client.SpanContext().SpanID() || server.SpanContext().TraceID() != rootSpan.SpanContext().TraceID() {
		t.Errorf("server span has parent %v, want the client span %v", server.Parent(), client.SpanContext())
	}
	mu.Lock()
	defer mu.Unlock()
	wantHeader := "00-" + client.SpanContext().TraceID().String() + "-" + client.SpanContext().SpanID().String() + "-01"
	if !slices.Contains(headers, wantHeader) {
		t.Errorf("traceparent headers %q lack %q", headers, wantHeader)
	}
	if got := clientRec.durations(t, "mcp.client.operation.duration"); len(got) != 1 || !strings.Contains(got[0], "gen_ai.tool.name=echo") {
		t.Errorf("mcp.client.operation.duration = %q, want one point for echo", got)
	}
}

// TestServeHTTPReady checks that /readyz follows HTTPOptions.Ready, and
// that /healthz does not.
func TestServeHTTPReady(t *testing.T) {
	t.Parallel()
	var notReady atomic.Pointer[error]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() {
		served <- ServeHTTP(ctx, ln, testServer(t, nil), &HTTPOptions{Ready: func(context.Context) error {
			if e := notReady.Load(); e != nil {
				return *e
			}
			return nil
		}})
	}()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	c := &http.Client{Transport: &http.Transport{}}
	defer c.CloseIdleConnections()
	get := func(path string) string {
		resp, err := c.Get("http://" + ln.Addr().String() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		_, _ = fmt.Fprint(&b, resp.StatusCode, " ")
		buf := make([]byte, 200)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return strings.TrimSpace(b.String())
	}
	if got := []string{get(HealthPath), get(ReadyPath)}; !slices.Equal(got, []string{"200 ok", "200 ready"}) {
		t.Errorf("ready: %q", got)
	}
	e := errors.New(`mcp server "docs" is lost`)
	notReady.Store(&e)
	if got := []string{get(HealthPath), get(ReadyPath)}; !slices.Equal(got, []string{"200 ok", `503 not ready: mcp server "docs" is lost`}) {
		t.Errorf("not ready: %q", got)
	}
	// /readyz needs no token: the reason it gives has its credentials
	// removed, and its controls and lines.
	e = errors.New("mcp server \"docs\" is lost: Post \"https://u:pw-0123456789@docs.example/mcp?token=tok-0123456789\":\n\x1b[2J connection refused")
	if got := get(ReadyPath); strings.Contains(got, "0123456789") || got != `503 not ready: mcp server "docs" is lost: Post "https://[REDACTED]@docs.example/mcp?token=[REDACTED]": [2J connection refused` {
		t.Errorf("not ready, a reason with credentials: %q", got)
	}
}

// TestMountsReady checks that a server left out at start makes the mounts
// not ready, and that live servers do not.
func TestMountsReady(t *testing.T) {
	t.Parallel()
	live, _ := httpSpec(t, "live")
	if err := mount(t, []string{live}, nil).Ready(t.Context()); err != nil {
		t.Errorf("live server: Ready = %v", err)
	}
	err := mount(t, []string{live, "dead=" + deadURL(t)}, nil).Ready(t.Context())
	if err == nil || !strings.Contains(err.Error(), `"dead" could not be mounted`) || strings.Contains(err.Error(), `"live"`) {
		t.Errorf("dead server: Ready = %v, want an error naming dead alone", err)
	}
}

// TestTelemetryUnknownTools calls tools the server does not have, with
// names of 1 KiB: their spans and data points do not carry the names a
// client made up. The name went into the span's name and into an
// attribute of the duration metric, so that each call with a new name
// (up to the 4 MiB a body may hold) added a data point the meter keeps
// for as long as the process lives, up to its 2,000 a metric.
func TestTelemetryUnknownTools(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	cs := inMemory(t, telemetryServer(t, rec.p))
	for i := range 3 {
		name := fmt.Sprint(i) + strings.Repeat("x", 1<<10)
		if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}}); err == nil {
			t.Fatalf("the unknown tool %.10s… was called", name)
		}
	}
	var names []string
	for _, s := range rec.spans.Ended() {
		if strings.HasPrefix(s.Name(), "tools/call") {
			names = append(names, s.Name())
		}
	}
	calls := slices.DeleteFunc(rec.durations(t, "mcp.server.operation.duration"), func(p string) bool { return !strings.Contains(p, "mcp.method.name=tools/call") })
	want := []string{"n=3 error.type=-32602 gen_ai.operation.name=execute_tool mcp.method.name=tools/call rpc.response.status_code=-32602"}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("data points (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"tools/call", "tools/call", "tools/call"}, names); diff != "" {
		t.Errorf("span names (-want +got):\n%s", diff)
	}
}
