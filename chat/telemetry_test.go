package chat

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolreg/toolreg/telemetry"
)

// recorded telemetry of a test: spans in memory, metrics on demand.
type telemetryRecorder struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	p      *telemetry.Providers
}

func newTelemetryRecorder(content bool) *telemetryRecorder {
	r := &telemetryRecorder{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.p = &telemetry.Providers{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans)),
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader)),
		RecordContent:  content,
	}
	return r
}

// spanView is what a test compares of a span.
type spanView struct {
	Name, Parent, Kind, Status string
	Attrs                      map[string]string
}

// views returns the ended spans sorted by name, each with its parent's
// name ("" for a root), checking that every span is of one trace.
func (r *telemetryRecorder) views(t *testing.T) []spanView {
	t.Helper()
	spans := r.spans.Ended()
	byID := map[string]string{}
	for _, s := range spans {
		byID[s.SpanContext().SpanID().String()] = s.Name()
	}
	var out []spanView
	for _, s := range spans {
		if s.SpanContext().TraceID() != spans[0].SpanContext().TraceID() {
			t.Errorf("span %q is of trace %s, not %s", s.Name(), s.SpanContext().TraceID(), spans[0].SpanContext().TraceID())
		}
		v := spanView{Name: s.Name(), Kind: s.SpanKind().String(), Status: s.Status().Code.String(), Attrs: map[string]string{}}
		if s.Parent().IsValid() {
			v.Parent = byID[s.Parent().SpanID().String()]
			if v.Parent == "" {
				v.Parent = "(not recorded)"
			}
		}
		for _, a := range s.Attributes() {
			v.Attrs[string(a.Key)] = a.Value.String()
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b spanView) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// histograms returns, by metric name, the data points of each histogram
// as "count attrs" strings, sorted.
func (r *telemetryRecorder) histograms(t *testing.T) map[string][]string {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			var pts []string
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					pts = append(pts, fmt.Sprintf("n=%d %s", p.Count, attrString(p.Attributes)))
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					pts = append(pts, fmt.Sprintf("n=%d sum=%d %s", p.Count, p.Sum, attrString(p.Attributes)))
				}
			default:
				t.Errorf("metric %s is a %T, want a histogram", m.Name, m.Data)
			}
			slices.Sort(pts)
			out[m.Name+" ("+m.Unit+")"] = pts
		}
	}
	return out
}

func attrString(s attribute.Set) string {
	var parts []string
	for _, kv := range s.ToSlice() {
		parts = append(parts, string(kv.Key)+"="+kv.Value.String())
	}
	return strings.Join(parts, " ")
}

// TestTelemetryTurn runs a turn with two tool calls, one of a tool that
// does not exist, and checks the span tree, its attributes and the
// metrics.
func TestTelemetryTurn(t *testing.T) {
	f := newFake(t,
		sse(callStart(0, "call_1", "echo"), callArgs(0, `{"text":"hi"}`),
			callStart(1, "call_2", "nope"), callArgs(1, `{}`), finish("tool_calls"), usage(10, 5)),
		sse(text("Done."), finish("stop"), usage(20, 2)))
	rec := newTelemetryRecorder(false)
	conv := &Conversation{Client: f.client(nil), Tools: echoTools(), Telemetry: rec.p, Provider: "deepseek", Session: "s-1"}
	if _, err := conv.Turn(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(f.srv.URL)
	chatAttrs := func(in, out, finish string) map[string]string {
		return map[string]string{
			"gen_ai.operation.name": "chat", "gen_ai.provider.name": "deepseek",
			"gen_ai.request.model": testModel, "gen_ai.response.model": testModel,
			"gen_ai.usage.input_tokens": in, "gen_ai.usage.output_tokens": out,
			"gen_ai.response.finish_reasons": `["` + finish + `"]`,
			"server.address":                 u.Hostname(), "server.port": u.Port(),
		}
	}
	want := []spanView{
		{Name: "chat test-model", Parent: "invoke_agent", Kind: "client", Status: "Unset", Attrs: chatAttrs("10", "5", "tool_calls")},
		{Name: "chat test-model", Parent: "invoke_agent", Kind: "client", Status: "Unset", Attrs: chatAttrs("20", "2", "stop")},
		{Name: "execute_tool echo", Parent: "invoke_agent", Kind: "internal", Status: "Unset", Attrs: map[string]string{
			"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "echo", "gen_ai.tool.call.id": "call_1", "gen_ai.tool.type": "function",
		}},
		{Name: "execute_tool nope", Parent: "invoke_agent", Kind: "internal", Status: "Error", Attrs: map[string]string{
			"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "nope", "gen_ai.tool.call.id": "call_2", "gen_ai.tool.type": "function",
			"error.type": "unknown_tool",
		}},
		{Name: "invoke_agent", Kind: "internal", Status: "Unset", Attrs: map[string]string{
			"gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "deepseek", "gen_ai.request.model": testModel,
			"gen_ai.conversation.id": "s-1", "gen_ai.usage.input_tokens": "30", "gen_ai.usage.output_tokens": "7",
		}},
	}
	got := rec.views(t)
	// The two chat spans have the same name; order them by their tokens.
	slices.SortStableFunc(got, func(a, b spanView) int {
		return strings.Compare(a.Name+a.Attrs["gen_ai.usage.input_tokens"], b.Name+b.Attrs["gen_ai.usage.input_tokens"])
	})
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spans (-want +got):\n%s", d)
	}
	common := "gen_ai.operation.name=chat gen_ai.provider.name=deepseek gen_ai.request.model=test-model gen_ai.response.model=test-model"
	server := "server.address=" + u.Hostname() + " server.port=" + u.Port()
	wantMetrics := map[string][]string{
		"gen_ai.client.operation.duration (s)": {"n=2 " + common + " " + server},
		"gen_ai.client.token.usage ({token})": {
			"n=2 sum=30 " + common + " gen_ai.token.type=input " + server,
			"n=2 sum=7 " + common + " gen_ai.token.type=output " + server,
		},
	}
	if d := cmp.Diff(wantMetrics, rec.histograms(t)); d != "" {
		t.Errorf("metrics (-want +got):\n%s", d)
	}
}

// TestTelemetryContent checks that arguments and results are recorded only
// when asked, and then redacted.
func TestTelemetryContent(t *testing.T) {
	for _, content := range []bool{false, true} {
		t.Run(fmt.Sprint("content=", content), func(t *testing.T) {
			f := newFake(t, toolAnswer("call_1", "echo", `{"text":"Authorization: Bearer abcdefgh12345678"}`), answer("ok"))
			rec := newTelemetryRecorder(content)
			conv := &Conversation{Client: f.client(nil), Tools: echoTools(), Telemetry: rec.p}
			if _, err := conv.Turn(t.Context(), "go"); err != nil {
				t.Fatal(err)
			}
			var got map[string]string
			for _, v := range rec.views(t) {
				if v.Name == "execute_tool echo" {
					got = map[string]string{"args": v.Attrs["gen_ai.tool.call.arguments"], "result": v.Attrs["gen_ai.tool.call.result"]}
				}
			}
			want := map[string]string{"args": "", "result": ""}
			if content {
				want = map[string]string{"args": `{"text":"Authorization: [REDACTED]"}`, "result": "Authorization: [REDACTED]"}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("recorded content (-want +got):\n%s", d)
			}
		})
	}
}

// TestTelemetryFailedRequest checks the error.type of a refused request on
// the chat span, the turn's span and the duration metric.
func TestTelemetryFailedRequest(t *testing.T) {
	f := newFake(t, jsonReply(400, `{"error":{"message":"bad model"}}`))
	rec := newTelemetryRecorder(false)
	conv := &Conversation{Client: f.client(nil), Telemetry: rec.p}
	if _, err := conv.Turn(t.Context(), "go"); err == nil {
		t.Fatal("the turn succeeded")
	}
	var got []string
	for _, v := range rec.views(t) {
		got = append(got, v.Name+" "+v.Status+" "+v.Attrs["error.type"])
	}
	if d := cmp.Diff([]string{"chat test-model Error 400", "invoke_agent Error 400"}, got); d != "" {
		t.Errorf("spans (-want +got):\n%s", d)
	}
	h := rec.histograms(t)["gen_ai.client.operation.duration (s)"]
	if len(h) != 1 || !strings.Contains(h[0], "error.type=400") {
		t.Errorf("duration points = %q, want one with error.type=400", h)
	}
}

// TestTelemetryOff checks that providers that are off make no instruments,
// so that a turn does no telemetry work at all.
func TestTelemetryOff(t *testing.T) {
	for _, p := range []*telemetry.Providers{nil, {}, telemetry.Noop()} {
		conv := &Conversation{Client: &Client{BaseURL: "http://127.0.0.1:1", Model: testModel}, Telemetry: p}
		if in := newInstruments(conv); in != nil {
			t.Errorf("Telemetry %+v: instruments made", p)
		}
	}
	conv := &Conversation{Client: &Client{BaseURL: "http://127.0.0.1:1", Model: testModel}, Telemetry: newTelemetryRecorder(false).p}
	if newInstruments(conv) == nil {
		t.Error("Telemetry on: no instruments made")
	}
}

// TestLongToolNamesClipped: a model can send a tool name of any size. A
// call of one runs (its tools answer that no such tool exists: the
// registry clips the name it quotes) and one past the turn's limit is not
// run; neither puts the whole name (or the first its whole id) in a
// span's name or attributes, nor the second in the message that says it
// was not run.
func TestLongToolNamesClipped(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	f := newFake(t,
		sse(callStart(0, "c1"+long, long), callArgs(0, `{}`), callStart(1, "c2", long), callArgs(1, `{}`), finish("tool_calls")),
		answer("enough"),
	)
	rec := newTelemetryRecorder(false)
	conv := &Conversation{Client: f.client(nil), Tools: echoTools(), Telemetry: rec.p, MaxToolCalls: 1}
	if _, err := conv.Turn(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	clipped := strings.Repeat("n", maxToolNameShown) + "…"
	var tools []spanView
	for _, v := range rec.views(t) {
		if strings.HasPrefix(v.Name, "execute_tool ") {
			tools = append(tools, v)
		}
	}
	if len(tools) != 1 {
		t.Fatalf("%d execute_tool spans, want 1 (the call past the limit is not run)", len(tools))
	}
	if got := tools[0].Name; got != "execute_tool "+clipped {
		t.Errorf("span name of %d bytes, want %d", len(got), len("execute_tool "+clipped))
	}
	if got := tools[0].Attrs["gen_ai.tool.name"]; got != clipped {
		t.Errorf("gen_ai.tool.name of %d bytes, want %d", len(got), len(clipped))
	}
	if got, want := tools[0].Attrs["gen_ai.tool.call.id"], "c1"+clipped[:maxToolNameShown-2]+"…"; got != want {
		t.Errorf("gen_ai.tool.call.id of %d bytes, want %d", len(got), len(want))
	}
	found := false
	for _, m := range f.requests()[1].messages() {
		m := m.(map[string]any)
		if m["role"] != "tool" || m["tool_call_id"] != "c2" {
			continue
		}
		found = true
		if content := m["content"].(string); len(content) > 1<<10 {
			t.Errorf("the tool message of %v is %d bytes: %.120s…", m["tool_call_id"], len(content), content)
		}
	}
	if !found {
		t.Error("no tool message answered the call past the limit")
	}
}
