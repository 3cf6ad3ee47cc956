// Package telemetry holds what toolreg's instrumented packages (chat,
// toolmcp) share: the OpenTelemetry providers they are given, the
// propagator, whether arguments and results may be recorded, and the
// error.type of a failed call. It depends on the OpenTelemetry API only;
// package fromenv makes the providers from the OTEL_* environment, with
// the SDK and the exporters, for programs that want them.
//
// Telemetry is off by default: nil, zero or no-op providers are off, and
// the instrumented packages then skip all their work (no allocation).
//
// Tool arguments and results, and the text of tool failures, may hold
// personal data: they are recorded on spans only when
// TOOLREG_OTEL_RECORD_CONTENT=true, and then through [Providers.ContentToRecord],
// which removes secrets first.
//
// Libraries take a *Providers in their options; nothing here sets the
// global providers of the otel package.
package telemetry

import (
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/toolreg/toolreg/redact"
)

// The environment variables that turn telemetry on (see package
// fromenv); the SDK and the exporters read the other OTEL_* variables.
const (
	EnvTracesExporter  = "OTEL_TRACES_EXPORTER"
	EnvMetricsExporter = "OTEL_METRICS_EXPORTER"
	EnvSDKDisabled     = "OTEL_SDK_DISABLED"
	// EnvRecordContent, set to "true", records tool arguments and results
	// on spans (redacted). They are left out otherwise.
	EnvRecordContent = "TOOLREG_OTEL_RECORD_CONTENT"
)

// ScopeName is the instrumentation scope of toolreg's tracers and meters.
const ScopeName = "github.com/toolreg/toolreg"

// Providers is what instrumented code needs. The zero value and nil are
// telemetry off. Set the fields before use and do not change them after.
type Providers struct {
	// TracerProvider makes the spans; off when nil or a no-op provider.
	TracerProvider trace.TracerProvider
	// MeterProvider makes the metrics; off when nil or a no-op provider.
	MeterProvider metric.MeterProvider
	// Propagator carries trace context across processes: it is read from
	// MCP requests' params._meta and written into calls of mounted
	// servers. W3C trace context and baggage when nil.
	Propagator propagation.TextMapPropagator
	// RecordContent records tool arguments and results on spans, passed
	// through Redact. Off by default: they may hold personal data.
	RecordContent bool
	// Redact removes secrets from recorded content; redact.String (the
	// credentials of a known shape) when nil.
	Redact func(string) string
}

// Tracing reports whether p makes spans.
func (p *Providers) Tracing() bool {
	if p == nil || p.TracerProvider == nil {
		return false
	}
	_, noop := p.TracerProvider.(tracenoop.TracerProvider)
	return !noop
}

// Metrics reports whether p records metrics.
func (p *Providers) Metrics() bool {
	if p == nil || p.MeterProvider == nil {
		return false
	}
	_, noop := p.MeterProvider.(metricnoop.MeterProvider)
	return !noop
}

// Enabled reports whether p makes spans or records metrics. Instrumented
// code skips all its work when it does not.
func (p *Providers) Enabled() bool { return p.Tracing() || p.Metrics() }

// Tracer returns toolreg's tracer, a no-op one when tracing is off.
func (p *Providers) Tracer() trace.Tracer {
	if !p.Tracing() {
		return tracenoop.NewTracerProvider().Tracer(ScopeName)
	}
	return p.TracerProvider.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))
}

// Meter returns toolreg's meter, a no-op one when metrics are off.
func (p *Providers) Meter() metric.Meter {
	if !p.Metrics() {
		return metricnoop.NewMeterProvider().Meter(ScopeName)
	}
	return p.MeterProvider.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))
}

// TextMapPropagator returns p's propagator: W3C trace context and baggage
// unless p sets another.
func (p *Providers) TextMapPropagator() propagation.TextMapPropagator {
	if p != nil && p.Propagator != nil {
		return p.Propagator
	}
	return defaultPropagator
}

var defaultPropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// ContentToRecord returns s redacted for recording on a span, and whether
// content (tool arguments and results) may be recorded at all.
func (p *Providers) ContentToRecord(s string) (string, bool) {
	if p == nil || !p.RecordContent {
		return "", false
	}
	if p.Redact != nil {
		return p.Redact(s), true
	}
	return redact.String(s), true
}

// Noop returns providers that do nothing.
func Noop() *Providers {
	return &Providers{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()}
}
