package otlp

import (
	"context"
	"fmt"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// SpanExporter sends spans over OTLP/HTTP. It implements
// sdktrace.SpanExporter; use it with a batch span processor.
type SpanExporter struct {
	c *client
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
	// A new buffer each time: the HTTP transport may still be reading a
	// request's body after the response has come.
	return x.c.post(ctx, appendTraceRequest(nil, spans))
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
	b, err := appendMetricsRequest(nil, rm)
	if err != nil {
		return fmt.Errorf("otlp: %w", err)
	}
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
