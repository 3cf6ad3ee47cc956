// Package fromenv makes toolreg's OpenTelemetry providers from the
// standard environment variables, off by default.
//
// With neither OTEL_TRACES_EXPORTER nor OTEL_METRICS_EXPORTER set (or both
// "none"), or with OTEL_SDK_DISABLED=true, [Setup] creates no exporter and
// returns telemetry.Noop(): providers that do nothing, which the
// instrumented packages recognise and skip entirely. Otherwise:
//
//	OTEL_TRACES_EXPORTER   otlp | console | none
//	OTEL_METRICS_EXPORTER  otlp | console | none
//	OTEL_EXPORTER_OTLP_PROTOCOL (and _TRACES_, _METRICS_): http/protobuf, the default
//	OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT, _COMPRESSION, _CERTIFICATE,
//	  _CLIENT_CERTIFICATE, _CLIENT_KEY and their per-signal variants
//	  (see [otlp.FromEnv])
//	OTEL_METRIC_EXPORT_INTERVAL, OTEL_METRIC_EXPORT_TIMEOUT (read by the periodic reader)
//	OTEL_SERVICE_NAME (default "toolreg"), OTEL_RESOURCE_ATTRIBUTES
//
// All are read with Setup's getenv except the last four, which the SDK
// reads from the process environment.
//
// TOOLREG_OTEL_RECORD_CONTENT=true records tool arguments and results
// (see telemetry.Providers.RecordContent).
//
// Only OTLP over HTTP (binary protobuf) and the console are built in. The
// OTLP exporter is toolreg's own, package telemetry/otlp: opentelemetry-go's
// otlptracehttp and otlpmetrichttp link google.golang.org/protobuf, grpc
// and grpc-gateway, 154 packages and 9.8 MB of the agent, whose package
// initialisation ran on every start of the agent and of each tool worker
// (bench/results/otlp.md). OTLP over gRPC and the Prometheus scrape
// endpoint, which go.opentelemetry.io/contrib's autoexport offers, are not
// built in either: send OTLP/HTTP to an OpenTelemetry Collector (port 4318)
// and let it speak gRPC or serve Prometheus. Asking for either is an error
// that says so, never a silent fallback.
//
// It is a package of its own so that importing chat or toolmcp does not
// link the SDK and the exporters into a program.
package fromenv

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/telemetry/otlp"
)

// DefaultServiceName is the service.name of the resource when
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES do not name one.
const DefaultServiceName = "toolreg"

// exporters makes the exporters the environment names; envExporters in
// use, replaced in tests.
type exporters struct {
	spans   func(context.Context) (sdktrace.SpanExporter, error)
	metrics func(context.Context) (sdkmetric.Reader, error)
}

// envExporters makes the exporters named by OTEL_TRACES_EXPORTER and
// OTEL_METRICS_EXPORTER, read with getenv, as are the OTLP exporters'
// endpoint, headers and the like (see package telemetry/otlp).
func envExporters(getenv func(string) string) exporters {
	return exporters{
		spans: func(context.Context) (sdktrace.SpanExporter, error) {
			switch name := exporterName(getenv(telemetry.EnvTracesExporter)); name {
			case "otlp":
				cfg, err := otlp.FromEnv(getenv, otlp.Traces)
				if err != nil {
					return nil, err
				}
				return otlp.NewSpanExporter(cfg)
			case "console":
				return stdouttrace.New()
			default:
				return nil, unknownExporter(name, "otlp", "console")
			}
		},
		metrics: func(context.Context) (sdkmetric.Reader, error) {
			switch name := exporterName(getenv(telemetry.EnvMetricsExporter)); name {
			case "otlp":
				cfg, err := otlp.FromEnv(getenv, otlp.Metrics)
				if err != nil {
					return nil, err
				}
				exp, err := otlp.NewMetricExporter(cfg)
				if err != nil {
					return nil, err
				}
				return sdkmetric.NewPeriodicReader(exp), nil
			case "console":
				exp, err := stdoutmetric.New()
				if err != nil {
					return nil, err
				}
				return sdkmetric.NewPeriodicReader(exp), nil
			case "prometheus":
				return nil, errors.New("the Prometheus exporter is not built in: export with otlp to an OpenTelemetry Collector and let it serve Prometheus")
			default:
				return nil, unknownExporter(name, "otlp", "console")
			}
		},
	}
}

// exporterName is an exporter variable's value as compared.
func exporterName(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// unknownExporter is the error for an exporter name that is not built in.
func unknownExporter(name string, known ...string) error {
	return fmt.Errorf("unknown exporter %q: want one of %s or none", name, strings.Join(known, ", "))
}

// Setup returns the providers the environment asks for (see the package
// doc), read with getenv for the variables that turn telemetry on, and a
// function that flushes and stops them. With telemetry off, it creates no
// exporter and returns Noop() and a shutdown that does nothing.
func Setup(ctx context.Context, getenv func(string) string) (*telemetry.Providers, func(context.Context) error, error) {
	return setup(ctx, getenv, envExporters(getenv))
}

func setup(ctx context.Context, getenv func(string) string, ex exporters) (*telemetry.Providers, func(context.Context) error, error) {
	nothing := func(context.Context) error { return nil }
	p := telemetry.Noop()
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
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		p.TracerProvider = tp
		shutdowns = append(shutdowns, tp.Shutdown)
	}
	if metrics {
		reader, err := ex.metrics(ctx)
		if err != nil {
			err = fmt.Errorf("telemetry: %s=%s: %w", telemetry.EnvMetricsExporter, getenv(telemetry.EnvMetricsExporter), err)
			return nil, nothing, errors.Join(err, shutdown(ctx))
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
		p.MeterProvider = mp
		shutdowns = append(shutdowns, mp.Shutdown)
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
