// Package telemetry sets up OpenTelemetry for toolreg's agent and MCP
// server, and holds what the instrumented packages share: the providers,
// the propagator, whether arguments and results may be recorded, and the
// error.type of a failed call.
//
// Telemetry is off by default. [Setup] reads the standard environment
// variables: with neither OTEL_TRACES_EXPORTER nor OTEL_METRICS_EXPORTER
// set (or both "none"), or with OTEL_SDK_DISABLED=true, it creates no
// exporter and returns providers that do nothing, which the instrumented
// packages recognise and skip entirely: telemetry off costs no allocation.
// Otherwise the exporters are chosen by
// go.opentelemetry.io/contrib/exporters/autoexport:
//
//	OTEL_TRACES_EXPORTER   otlp | console | none
//	OTEL_METRICS_EXPORTER  otlp | prometheus | console | none
//	OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_HEADERS, …
//	OTEL_EXPORTER_PROMETHEUS_HOST, OTEL_EXPORTER_PROMETHEUS_PORT (default localhost:9464)
//	OTEL_SERVICE_NAME (default "toolreg"), OTEL_RESOURCE_ATTRIBUTES
//
// Tool arguments and results, and the text of tool failures, may hold
// personal data: they are recorded on spans only when
// TOOLREG_OTEL_RECORD_CONTENT=true, and then through [Providers.Content],
// which removes secrets first.
//
// Libraries take a *Providers in their options; nothing here sets the
// global providers of the otel package.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/toolreg/toolreg/redact"
)

// The environment variables Setup reads itself; autoexport and the SDK
// read the other OTEL_* variables.
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

// DefaultServiceName is the service.name of the resource when
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES do not name one.
const DefaultServiceName = "toolreg"

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

// Content returns s redacted for recording, and whether content may be
// recorded at all.
func (p *Providers) Content(s string) (string, bool) {
	if p == nil || !p.RecordContent {
		return "", false
	}
	if p.Redact != nil {
		return p.Redact(s), true
	}
	return redact.String(s), true
}

// Off returns providers that do nothing.
func Off() *Providers {
	return &Providers{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()}
}

// exporters makes the exporters; autoexport's, replaced in tests.
type exporters struct {
	spans   func(context.Context) (sdktrace.SpanExporter, error)
	metrics func(context.Context) (sdkmetric.Reader, error)
}

var autoExporters = exporters{
	spans:   func(ctx context.Context) (sdktrace.SpanExporter, error) { return autoexport.NewSpanExporter(ctx) },
	metrics: func(ctx context.Context) (sdkmetric.Reader, error) { return autoexport.NewMetricReader(ctx) },
}

// Setup returns the providers the environment asks for (see the package
// doc), read with getenv for the variables that turn telemetry on, and a
// function that flushes and stops them. With telemetry off, it creates no
// exporter and returns Off() and a shutdown that does nothing.
func Setup(ctx context.Context, getenv func(string) string) (*Providers, func(context.Context) error, error) {
	return setup(ctx, getenv, autoExporters)
}

func setup(ctx context.Context, getenv func(string) string, ex exporters) (*Providers, func(context.Context) error, error) {
	nothing := func(context.Context) error { return nil }
	p := Off()
	p.RecordContent, _ = parseBool(getenv(EnvRecordContent))
	if disabled, err := parseBool(getenv(EnvSDKDisabled)); err != nil {
		return nil, nothing, fmt.Errorf("telemetry: %s: %w", EnvSDKDisabled, err)
	} else if disabled {
		return p, nothing, nil
	}
	traces, metrics := wanted(getenv(EnvTracesExporter)), wanted(getenv(EnvMetricsExporter))
	if !traces && !metrics {
		return p, nothing, nil
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName(DefaultServiceName)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, nothing, fmt.Errorf("telemetry: resource: %w", err)
	}
	var shutdowns []func(context.Context) error
	shutdown := func(ctx context.Context) error {
		var errs []error
		for _, f := range shutdowns {
			errs = append(errs, f(ctx))
		}
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("telemetry: shutdown: %w", err)
		}
		return nil
	}
	if traces {
		exp, err := ex.spans(ctx)
		if err != nil {
			return nil, nothing, fmt.Errorf("telemetry: %s=%s: %w", EnvTracesExporter, getenv(EnvTracesExporter), err)
		}
		if !autoexport.IsNoneSpanExporter(exp) {
			tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
			p.TracerProvider = tp
			shutdowns = append(shutdowns, tp.Shutdown)
		}
	}
	if metrics {
		reader, err := ex.metrics(ctx)
		if err != nil {
			err = fmt.Errorf("telemetry: %s=%s: %w", EnvMetricsExporter, getenv(EnvMetricsExporter), err)
			return nil, nothing, errors.Join(err, shutdown(ctx))
		}
		if !autoexport.IsNoneMetricReader(reader) {
			mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
			p.MeterProvider = mp
			shutdowns = append(shutdowns, mp.Shutdown)
		}
	}
	return p, shutdown, nil
}

// wanted reports whether an exporter variable asks for an exporter.
func wanted(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && !strings.EqualFold(v, "none")
}

// parseBool reads a boolean variable as the OpenTelemetry specification
// does: "true" in any case is true, "" and "false" are false.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "", "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is neither true nor false", v)
}
