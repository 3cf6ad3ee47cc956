package otlp

import (
	"context"
	"sync"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// SpanExporter sends spans over OTLP/HTTP. It implements
// sdktrace.SpanExporter; use it with a batch span processor.
type SpanExporter struct {
	c    *client
	bufs sync.Pool
}

var _ sdktrace.SpanExporter = (*SpanExporter)(nil)

// NewSpanExporter returns an exporter that posts spans as cfg says.
func NewSpanExporter(cfg Config) (*SpanExporter, error) {
	c, err := newClient(cfg, "spans")
	if err != nil {
		return nil, err
	}
	return &SpanExporter{c: c}, nil
}

// ExportSpans sends spans in one request.
func (x *SpanExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	b, _ := x.bufs.Get().(*[]byte)
	if b == nil {
		b = new([]byte)
	}
	defer x.bufs.Put(b)
	*b = appendTraceRequest((*b)[:0], spans)
	return x.c.post(ctx, *b)
}

// Shutdown makes later exports fail; the batch processor has flushed
// before it calls it.
func (x *SpanExporter) Shutdown(context.Context) error {
	x.c.shutdown()
	return nil
}

// MetricExporter sends metrics over OTLP/HTTP. It implements
// sdkmetric.Exporter; use it with a periodic reader. Temporality and
// aggregation are the Config's, by default the SDK's (cumulative; explicit
// bucket histograms).
type MetricExporter struct {
	c    *client
	mu   sync.Mutex // guards buf
	buf  []byte
	temp sdkmetric.TemporalitySelector
	agg  sdkmetric.AggregationSelector
}

var _ sdkmetric.Exporter = (*MetricExporter)(nil)

// NewMetricExporter returns an exporter that posts metrics as cfg says.
func NewMetricExporter(cfg Config) (*MetricExporter, error) {
	c, err := newClient(cfg, "data points")
	if err != nil {
		return nil, err
	}
	x := &MetricExporter{c: c, temp: cfg.Temporality, agg: cfg.Aggregation}
	if x.temp == nil {
		x.temp = sdkmetric.DefaultTemporalitySelector
	}
	if x.agg == nil {
		x.agg = sdkmetric.DefaultAggregationSelector
	}
	return x, nil
}

// Temporality returns the temporality the exporter asks of the SDK.
func (x *MetricExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return x.temp(k)
}

// Aggregation returns the aggregation the exporter asks of the SDK.
func (x *MetricExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return x.agg(k)
}

// Export sends rm in one request; it sends nothing when rm holds no
// metric.
func (x *MetricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	if rm == nil || !hasMetrics(rm) {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	b, err := appendMetricsRequest(x.buf[:0], rm)
	if err != nil {
		return err
	}
	x.buf = b
	return x.c.post(ctx, b)
}

func hasMetrics(rm *metricdata.ResourceMetrics) bool {
	for _, sm := range rm.ScopeMetrics {
		if len(sm.Metrics) > 0 {
			return true
		}
	}
	return false
}

// ForceFlush does nothing: the exporter holds nothing between exports.
func (x *MetricExporter) ForceFlush(context.Context) error { return nil }

// Shutdown makes later exports fail.
func (x *MetricExporter) Shutdown(context.Context) error {
	x.c.shutdown()
	return nil
}
