package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
)

// request is what the test collector received.
type request struct {
	Method, Path string
	Header       http.Header
	Body         []byte // decompressed
}

// collector is a loopback OTLP/HTTP receiver that records requests and
// answers with respond (200 and an empty body by default).
type collector struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []request
	respond func(n int, w http.ResponseWriter, r *http.Request) // n counts requests from 1
}

func newCollector(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *collector {
	c := &collector{respond: respond}
	c.Server = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.Close)
	return c
}

func (c *collector) serve(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.reqs = append(c.reqs, request{r.Method, r.URL.Path, r.Header.Clone(), b})
	n := len(c.reqs)
	c.mu.Unlock()
	if c.respond != nil {
		c.respond(n, w, r)
	}
}

func (c *collector) requests() []request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.reqs)
}

// testSpans records spans that use every field of the protocol: a remote
// parent with a trace state, every attribute type, events, links (one
// remote), each status, each kind, dropped attributes, events and links,
// two scopes and a resource with a schema URL.
func testSpans(t *testing.T) []sdktrace.ReadOnlySpan {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	res := resource.NewWithAttributes("https://opentelemetry.io/schemas/1.26.0",
		attribute.String("service.name", "test"), attribute.Int("pid", 42))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithResource(res),
		sdktrace.WithRawSpanLimits(sdktrace.SpanLimits{
			AttributeCountLimit: 16, EventCountLimit: 2, LinkCountLimit: 2,
			AttributePerEventCountLimit: 1, AttributePerLinkCountLimit: 1,
			AttributeValueLengthLimit: -1,
		}))
	ts, err := trace.ParseTraceState("vendor=value,other=x")
	if err != nil {
		t.Fatal(err)
	}
	remote := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
		SpanID:  trace.SpanID{1, 2, 3, 4, 5, 6, 7, 8}, TraceFlags: trace.FlagsSampled,
		TraceState: ts, Remote: true,
	})
	linked := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{0xff, 1}, SpanID: trace.SpanID{0xee, 2}, TraceState: ts,
	})
	start := time.Unix(1_700_000_000, 123456789)
	ctx := trace.ContextWithRemoteSpanContext(t.Context(), remote)
	tracer := tp.Tracer("a", trace.WithInstrumentationVersion("1.2.3"),
		trace.WithInstrumentationAttributes(attribute.String("scope.attr", "s")), trace.WithSchemaURL("https://example.com/schema"))
	ctx, root := tracer.Start(ctx, "root", trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(start),
		trace.WithLinks(
			trace.Link{SpanContext: remote, Attributes: []attribute.KeyValue{attribute.String("l", "1"), attribute.Bool("dropped", true)}},
			trace.Link{SpanContext: linked},
			trace.Link{SpanContext: linked, Attributes: []attribute.KeyValue{attribute.Int("third", 3)}},
		))
	root.SetAttributes(
		attribute.String("s", "text é"), attribute.String("empty", ""),
		attribute.Bool("b", true), attribute.Bool("f", false),
		attribute.Int64("i", -7), attribute.Int64("big", 1<<62), attribute.Int64("zero", 0),
		attribute.Float64("d", 3.25), attribute.Float64("nd", -0.5), attribute.Float64("zd", 0),
		attribute.StringSlice("ss", []string{"x", "", "y"}), attribute.BoolSlice("bs", []bool{true, false}),
		attribute.Int64Slice("is", []int64{1, -1, 0}), attribute.Float64Slice("ds", []float64{1.5, 0}),
		attribute.ByteSlice("bytes", []byte{0, 1, 0xff}),
		attribute.Slice("mixed", attribute.StringValue("a"), attribute.IntValue(1), attribute.SliceValue(attribute.BoolValue(true))),
		attribute.Map("map", attribute.String("k", "v"), attribute.Map("inner", attribute.Float64("x", 1))),
		attribute.String("long", strings.Repeat("long value ", 40)),
		attribute.String("dropped1", "x"), attribute.String("dropped2", "y"),
	)
	root.AddEvent("first", trace.WithTimestamp(start.Add(time.Millisecond)), trace.WithAttributes(attribute.String("e", "1"), attribute.Int("gone", 2)))
	root.AddEvent("second", trace.WithTimestamp(start.Add(2*time.Millisecond)))
	root.AddEvent("third", trace.WithTimestamp(start.Add(3*time.Millisecond)))
	root.SetStatus(codes.Error, "it failed")
	for i, k := range []trace.SpanKind{trace.SpanKindUnspecified, trace.SpanKindInternal, trace.SpanKindClient, trace.SpanKindProducer, trace.SpanKindConsumer} {
		_, s := tracer.Start(ctx, "child", trace.WithSpanKind(k), trace.WithTimestamp(start.Add(time.Duration(i)*time.Second)))
		if i == 1 {
			s.SetStatus(codes.Ok, "ignored for ok")
		}
		s.End(trace.WithTimestamp(start.Add(time.Duration(i)*time.Second + time.Microsecond)))
	}
	root.End(trace.WithTimestamp(start.Add(10 * time.Second)))
	_, other := tp.Tracer("b").Start(t.Context(), "unsampled parentless", trace.WithTimestamp(start))
	other.End(trace.WithTimestamp(start.Add(time.Nanosecond)))
	return rec.Ended()
}

// decodeTraces decodes a request body with the official types.
func decodeTraces(t *testing.T, body []byte) *coltracepb.ExportTraceServiceRequest {
	t.Helper()
	var m coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &m); err != nil {
		t.Fatalf("decoding ExportTraceServiceRequest: %v", err)
	}
	return &m
}

func decodeMetrics(t *testing.T, body []byte) *colmetricpb.ExportMetricsServiceRequest {
	t.Helper()
	var m colmetricpb.ExportMetricsServiceRequest
	if err := proto.Unmarshal(body, &m); err != nil {
		t.Fatalf("decoding ExportMetricsServiceRequest: %v", err)
	}
	return &m
}

func testConfig(url string) Config {
	return Config{URL: url, Header: http.Header{}, Timeout: DefaultTimeout}
}

// TestSpansAsOfficialExporter sends the same spans with this exporter and
// with go.opentelemetry.io's otlptracehttp, decodes both requests with the
// generated OTLP types and compares them: every field, attribute type and
// nesting level must agree.
func TestSpansAsOfficialExporter(t *testing.T) {
	spans := testSpans(t)
	ours, theirs := newCollector(t, nil), newCollector(t, nil)
	x, err := NewSpanExporter(testConfig(ours.URL + "/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.ExportSpans(t.Context(), spans); err != nil {
		t.Fatal(err)
	}
	official, err := otlptracehttp.New(t.Context(), otlptracehttp.WithEndpointURL(theirs.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	if err := official.ExportSpans(t.Context(), spans); err != nil {
		t.Fatal(err)
	}
	official.Shutdown(t.Context())
	got, want := ours.requests(), theirs.requests()
	if len(got) != 1 || len(want) != 1 {
		t.Fatalf("requests: ours %d, official %d; want 1 each", len(got), len(want))
	}
	// otlptracehttp v1.47 leaves out the links' trace_state (field 3 of
	// Span.Link), which this exporter sends; TestSpansAsRecorded checks it.
	ignore := protocmp.IgnoreFields(&tracepb.Span_Link{}, "trace_state")
	if d := cmp.Diff(decodeTraces(t, want[0].Body), decodeTraces(t, got[0].Body), protocmp.Transform(), ignore); d != "" {
		t.Errorf("request (-official +ours):\n%s", d)
	}
	if g := got[0]; g.Method != http.MethodPost || g.Path != "/v1/traces" || g.Header.Get("Content-Type") != "application/x-protobuf" {
		t.Errorf("request %s %s, Content-Type %q; want POST /v1/traces, application/x-protobuf", g.Method, g.Path, g.Header.Get("Content-Type"))
	}
}

// spanSummary is what the SDK recorded of a span, or what a collector
// decoded, for TestSpansAsRecorded.
type spanSummary struct {
	Name                     string
	TraceID, SpanID, Parent  string
	TraceState               string
	Kind                     int
	Start, End               uint64
	Attributes, Events       int
	Links                    []string // trace id, span id, trace state, flags
	Dropped                  [3]int   // attributes, events, links
	StatusCode               int
	StatusMessage            string
	Flags                    uint32
	Scope, Version, Resource string
}

func recordedLinks(ls []sdktrace.Link) []string {
	var out []string
	for _, l := range ls {
		f := uint32(l.SpanContext.TraceFlags()) | 0x100
		if l.SpanContext.IsRemote() {
			f |= 0x200
		}
		out = append(out, fmt.Sprintf("%s %s %s %#x", l.SpanContext.TraceID(), l.SpanContext.SpanID(), l.SpanContext.TraceState(), f))
	}
	return out
}

func sentLinks(ls []*tracepb.Span_Link) []string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s %s %s %#x", trace.TraceID(l.TraceId), trace.SpanID(l.SpanId), l.TraceState, l.Flags))
	}
	return out
}

// TestSpansAsRecorded compares what the collector decodes with what the
// SDK recorded, field by field, independently of the official exporter.
func TestSpansAsRecorded(t *testing.T) {
	spans := testSpans(t)
	var want []spanSummary
	for _, s := range spans {
		sc, p := s.SpanContext(), s.Parent()
		parent := ""
		if p.SpanID().IsValid() {
			parent = p.SpanID().String()
		}
		flags := uint32(sc.TraceFlags()) | 0x100
		if p.IsRemote() {
			flags |= 0x200
		}
		code := map[codes.Code]int{codes.Unset: 0, codes.Ok: 1, codes.Error: 2}[s.Status().Code]
		res, _ := s.Resource().Set().Value("service.name")
		want = append(want, spanSummary{
			Name: s.Name(), TraceID: sc.TraceID().String(), SpanID: sc.SpanID().String(), Parent: parent,
			TraceState: sc.TraceState().String(), Kind: int(s.SpanKind()),
			Start: uint64(s.StartTime().UnixNano()), End: uint64(s.EndTime().UnixNano()),
			Attributes: len(s.Attributes()), Events: len(s.Events()), Links: recordedLinks(s.Links()),
			Dropped:    [3]int{s.DroppedAttributes(), s.DroppedEvents(), s.DroppedLinks()},
			StatusCode: code, StatusMessage: s.Status().Description, Flags: flags,
			Scope: s.InstrumentationScope().Name, Version: s.InstrumentationScope().Version, Resource: res.AsString(),
		})
	}
	if want[len(want)-2].Dropped == [3]int{} {
		t.Fatal("the root span dropped nothing: the test's limits do not bite")
	}
	c := newCollector(t, nil)
	x, err := NewSpanExporter(testConfig(c.URL + "/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.ExportSpans(t.Context(), spans); err != nil {
		t.Fatal(err)
	}
	var got []spanSummary
	for _, rs := range decodeTraces(t, c.requests()[0].Body).ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				hex := func(b []byte) string {
					if len(b) == 0 {
						return ""
					}
					if len(b) == 8 {
						return trace.SpanID(b).String()
					}
					return trace.TraceID(b).String()
				}
				got = append(got, spanSummary{
					Name: s.Name, TraceID: hex(s.TraceId), SpanID: hex(s.SpanId), Parent: hex(s.ParentSpanId),
					TraceState: s.TraceState, Kind: int(s.Kind), Start: s.StartTimeUnixNano, End: s.EndTimeUnixNano,
					Attributes: len(s.Attributes), Events: len(s.Events), Links: sentLinks(s.Links),
					Dropped:    [3]int{int(s.DroppedAttributesCount), int(s.DroppedEventsCount), int(s.DroppedLinksCount)},
					StatusCode: int(s.Status.GetCode()), StatusMessage: s.Status.GetMessage(), Flags: s.Flags,
					Scope: ss.Scope.GetName(), Version: ss.Scope.GetVersion(), Resource: rs.Resource.Attributes[1].Value.GetStringValue(),
				})
			}
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spans (-recorded +sent):\n%s", d)
	}
}

// testMetrics collects one of each kind of metric the SDK makes, with
// attributes and exemplars, with the given temporality and aggregation.
func testMetrics(t *testing.T, temporality sdkmetric.TemporalitySelector, agg sdkmetric.AggregationSelector) *metricdata.ResourceMetrics {
	t.Helper()
	reader := sdkmetric.NewManualReader(sdkmetric.WithTemporalitySelector(temporality), sdkmetric.WithAggregationSelector(agg))
	res := resource.NewWithAttributes("https://opentelemetry.io/schemas/1.26.0", attribute.String("service.name", "test"))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res),
		sdkmetric.WithView(sdkmetric.NewView(sdkmetric.Instrument{Name: "bounded"},
			sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: []float64{0, 1.5, 10}}})))
	defer mp.Shutdown(context.Background())
	// A sampled span in the context, for exemplars.
	ctx := trace.ContextWithSpanContext(t.Context(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{9, 9}, SpanID: trace.SpanID{8, 8}, TraceFlags: trace.FlagsSampled,
	}))
	m := mp.Meter("meter", metric.WithInstrumentationVersion("0.1"))
	attrs := metric.WithAttributes
	ic, _ := m.Int64Counter("int.counter", metric.WithDescription("counts"), metric.WithUnit("{call}"))
	ic.Add(ctx, 3, attrs(attribute.String("k", "a")))
	ic.Add(ctx, 4, attrs(attribute.String("k", "b"), attribute.Bool("ok", true)))
	fc, _ := m.Float64Counter("float.counter")
	fc.Add(ctx, 0.25)
	ud, _ := m.Int64UpDownCounter("updown")
	ud.Add(ctx, -5)
	ig, _ := m.Int64Gauge("int.gauge")
	ig.Record(ctx, -3, attrs(attribute.Int("n", 1)))
	fg, _ := m.Float64Gauge("float.gauge")
	fg.Record(ctx, 2.5)
	h, _ := m.Float64Histogram("float.hist", metric.WithUnit("s"))
	for _, v := range []float64{0.1, 7, 300, 1e4} {
		h.Record(ctx, v, attrs(attribute.StringSlice("tags", []string{"x"})))
	}
	ih, _ := m.Int64Histogram("bounded")
	ih.Record(ctx, 1)
	ih.Record(ctx, -2)
	_, err := m.Int64ObservableCounter("observed", metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
		o.Observe(11, metric.WithAttributes(attribute.String("async", "yes")))
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	// The SDK makes no summary; one by hand.
	rm.ScopeMetrics = append(rm.ScopeMetrics, metricdata.ScopeMetrics{
		Scope: instrumentation.Scope{Name: "summaries", SchemaURL: "https://example.com/s"},
		Metrics: []metricdata.Metrics{{Name: "summary", Data: metricdata.Summary{DataPoints: []metricdata.SummaryDataPoint{{
			Attributes: attribute.NewSet(attribute.String("q", "p")), StartTime: time.Unix(1, 0), Time: time.Unix(2, 0),
			Count: 3, Sum: 4.5, QuantileValues: []metricdata.QuantileValue{{Quantile: 0, Value: 1}, {Quantile: 0.5, Value: 1.5}, {Quantile: 1, Value: 2}},
		}}}}},
	})
	return &rm
}

// TestMetricsAsOfficialExporter sends the same metrics with this exporter
// and with otlpmetrichttp, cumulative with explicit bucket histograms and
// delta with exponential ones, and compares the decoded requests.
func TestMetricsAsOfficialExporter(t *testing.T) {
	for _, tc := range []struct {
		name string
		temp sdkmetric.TemporalitySelector
		agg  sdkmetric.AggregationSelector
	}{
		{"cumulative explicit", sdkmetric.DefaultTemporalitySelector, sdkmetric.DefaultAggregationSelector},
		{"delta exponential", deltaTemporality, exponentialHistograms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rm := testMetrics(t, tc.temp, tc.agg)
			ours, theirs := newCollector(t, nil), newCollector(t, nil)
			x, err := NewMetricExporter(testConfig(ours.URL + "/v1/metrics"))
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Export(t.Context(), rm); err != nil {
				t.Fatal(err)
			}
			official, err := otlpmetrichttp.New(t.Context(), otlpmetrichttp.WithEndpointURL(theirs.URL+"/v1/metrics"))
			if err != nil {
				t.Fatal(err)
			}
			if err := official.Export(t.Context(), rm); err != nil {
				t.Fatal(err)
			}
			official.Shutdown(t.Context())
			got, want := ours.requests(), theirs.requests()
			if len(got) != 1 || len(want) != 1 {
				t.Fatalf("requests: ours %d, official %d; want 1 each", len(got), len(want))
			}
			w, g := decodeMetrics(t, want[0].Body), decodeMetrics(t, got[0].Body)
			if d := cmp.Diff(w, g, protocmp.Transform()); d != "" {
				t.Errorf("request (-official +ours):\n%s", d)
			}
			exemplars := 0
			for _, sm := range g.ResourceMetrics[0].ScopeMetrics {
				for _, m := range sm.Metrics {
					for _, p := range m.GetSum().GetDataPoints() {
						exemplars += len(p.Exemplars)
					}
				}
			}
			if exemplars == 0 {
				t.Error("no exemplar sent: the test does not cover them")
			}
			if g := got[0]; g.Path != "/v1/metrics" || g.Header.Get("Content-Type") != "application/x-protobuf" {
				t.Errorf("request to %s, Content-Type %q", g.Path, g.Header.Get("Content-Type"))
			}
		})
	}
}

// TestMetricKinds checks that the test data covers every kind of metric,
// so that TestMetricsAsOfficialExporter compares each.
func TestMetricKinds(t *testing.T) {
	kinds := func(rm *metricdata.ResourceMetrics) []string {
		var ks []string
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				ks = append(ks, strings.SplitN(strings.TrimPrefix(fmt.Sprintf("%T", m.Data), "metricdata."), "[", 2)[0])
			}
		}
		slices.Sort(ks)
		return slices.Compact(ks)
	}
	got := append(kinds(testMetrics(t, sdkmetric.DefaultTemporalitySelector, sdkmetric.DefaultAggregationSelector)),
		kinds(testMetrics(t, deltaTemporality, exponentialHistograms))...)
	slices.Sort(got)
	got = slices.Compact(got)
	want := []string{"ExponentialHistogram", "Gauge", "Histogram", "Sum", "Summary"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("metric kinds in the test data (-want +got):\n%s", d)
	}
}

// TestEmptyExports checks that nothing is sent for no spans or no metric.
func TestEmptyExports(t *testing.T) {
	c := newCollector(t, nil)
	sx, _ := NewSpanExporter(testConfig(c.URL))
	mx, _ := NewMetricExporter(testConfig(c.URL))
	if err := sx.ExportSpans(t.Context(), nil); err != nil {
		t.Error(err)
	}
	if err := mx.Export(t.Context(), &metricdata.ResourceMetrics{ScopeMetrics: []metricdata.ScopeMetrics{{}}}); err != nil {
		t.Error(err)
	}
	if n := len(c.requests()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

// TestGzip checks that a gzipped request decodes to the same message.
func TestGzip(t *testing.T) {
	spans := testSpans(t)
	c := newCollector(t, nil)
	for _, gz := range []bool{false, true} {
		cfg := testConfig(c.URL)
		cfg.Gzip = gz
		x, _ := NewSpanExporter(cfg)
		if err := x.ExportSpans(t.Context(), spans); err != nil {
			t.Fatal(err)
		}
	}
	reqs := c.requests()
	if got := []string{reqs[0].Header.Get("Content-Encoding"), reqs[1].Header.Get("Content-Encoding")}; !slices.Equal(got, []string{"", "gzip"}) {
		t.Errorf("Content-Encoding = %q, want none then gzip", got)
	}
	if !bytes.Equal(reqs[0].Body, reqs[1].Body) {
		t.Error("the gzipped request decompresses to another body")
	}
}
