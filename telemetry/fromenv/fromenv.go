// Package fromenv makes toolreg's OpenTelemetry providers from the
// standard environment variables, off by default.
//
// With neither OTEL_TRACES_EXPORTER nor OTEL_METRICS_EXPORTER set (or both
// "none"), or with OTEL_SDK_DISABLED=true, [Setup] creates no exporter and
// returns telemetry.Off(): providers that do nothing, which the
// instrumented packages recognise and skip entirely. Otherwise the
// exporters are chosen by go.opentelemetry.io/contrib/exporters/autoexport:
//
//	OTEL_TRACES_EXPORTER   otlp | console | none
//	OTEL_METRICS_EXPORTER  otlp | prometheus | console | none
//	OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_HEADERS, …
//	OTEL_EXPORTER_PROMETHEUS_HOST, OTEL_EXPORTER_PROMETHEUS_PORT (default localhost:9464)
//	OTEL_SERVICE_NAME (default "toolreg"), OTEL_RESOURCE_ATTRIBUTES
//
// TOOLREG_OTEL_RECORD_CONTENT=true records tool arguments and results
// (see telemetry.Providers.RecordContent).
//
// It is a package of its own so that importing chat or toolmcp does not
// link the SDK and the exporters (gRPC, Prometheus) into a program.
package fromenv

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/toolreg/toolreg/telemetry"
)

// DefaultServiceName is the service.name of the resource when
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES do not name one.
const DefaultServiceName = "toolreg"

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
func Setup(ctx context.Context, getenv func(string) string) (*telemetry.Providers, func(context.Context) error, error) {
	return setup(ctx, getenv, autoExporters)
}

func setup(ctx context.Context, getenv func(string) string, ex exporters) (*telemetry.Providers, func(context.Context) error, error) {
	nothing := func(context.Context) error { return nil }
	p := telemetry.Off()
	p.RecordContent, _ = parseBool(getenv(telemetry.EnvRecordContent))
	if disabled, err := parseBool(getenv(telemetry.EnvSDKDisabled)); err != nil {
		return nil, nothing, fmt.Errorf("telemetry: %s: %w", telemetry.EnvSDKDisabled, err)
	} else if disabled {
		return p, nothing, nil
	}
	traces, metrics := wanted(getenv(telemetry.EnvTracesExporter)), wanted(getenv(telemetry.EnvMetricsExporter))
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
			return nil, nothing, fmt.Errorf("telemetry: %s=%s: %w", telemetry.EnvTracesExporter, getenv(telemetry.EnvTracesExporter), err)
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
			err = fmt.Errorf("telemetry: %s=%s: %w", telemetry.EnvMetricsExporter, getenv(telemetry.EnvMetricsExporter), err)
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
