package fromenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/toolreg/toolreg/telemetry"
)

// Environment variables that choose the OTLP transport.
const (
	envOTLPProtocol        = "OTEL_EXPORTER_OTLP_PROTOCOL"
	envOTLPTracesProtocol  = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	envOTLPMetricsProtocol = "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"
)

// countingExporters counts the exporters made; they export to memory.
type countingExporters struct {
	spans, metrics int
}

func (c *countingExporters) exporters() exporters {
	return exporters{
		spans: func(context.Context) (sdktrace.SpanExporter, error) {
			c.spans++
			return tracetest.NewInMemoryExporter(), nil
		},
		metrics: func(context.Context) (sdkmetric.Reader, error) {
			c.metrics++
			return sdkmetric.NewManualReader(), nil
		},
	}
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestSetupOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
	}{
		{"unset", nil},
		{"none", map[string]string{telemetry.EnvTracesExporter: "none", telemetry.EnvMetricsExporter: "None"}},
		{"blank", map[string]string{telemetry.EnvTracesExporter: " ", telemetry.EnvMetricsExporter: ""}},
		{"sdk disabled", map[string]string{telemetry.EnvTracesExporter: "otlp", telemetry.EnvMetricsExporter: "otlp", telemetry.EnvSDKDisabled: "TRUE"}},
		{"only content", map[string]string{telemetry.EnvRecordContent: "true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c countingExporters
			p, shutdown, err := setup(t.Context(), envOf(tc.env), c.exporters())
			if err != nil {
				t.Fatal(err)
			}
			if c.spans != 0 || c.metrics != 0 {
				t.Errorf("exporters made: %d span, %d metric; want none", c.spans, c.metrics)
			}
			if p.Enabled() || p.Tracing() || p.Metrics() {
				t.Errorf("Enabled, Tracing, Metrics = %v, %v, %v; want all false", p.Enabled(), p.Tracing(), p.Metrics())
			}
			if _, ok := p.TracerProvider.(tracenoop.TracerProvider); !ok {
				t.Errorf("TracerProvider is %T, want the no-op provider", p.TracerProvider)
			}
			if _, ok := p.MeterProvider.(metricnoop.MeterProvider); !ok {
				t.Errorf("MeterProvider is %T, want the no-op provider", p.MeterProvider)
			}
			if err := shutdown(t.Context()); err != nil {
				t.Errorf("shutdown: %v", err)
			}
		})
	}
}

func TestSetupOn(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		env                    map[string]string
		spans, metrics         int
		tracing, metricsOn, on bool
	}{
		{"traces", map[string]string{telemetry.EnvTracesExporter: "console"}, 1, 0, true, false, true},
		{"metrics", map[string]string{telemetry.EnvMetricsExporter: "prometheus"}, 0, 1, false, true, true},
		{"both", map[string]string{telemetry.EnvTracesExporter: "otlp", telemetry.EnvMetricsExporter: "otlp", telemetry.EnvSDKDisabled: "false"}, 1, 1, true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c countingExporters
			p, shutdown, err := setup(t.Context(), envOf(tc.env), c.exporters())
			if err != nil {
				t.Fatal(err)
			}
			defer shutdown(context.Background())
			got := []any{c.spans, c.metrics, p.Tracing(), p.Metrics(), p.Enabled()}
			want := []any{tc.spans, tc.metrics, tc.tracing, tc.metricsOn, tc.on}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("span exporters, metric readers, Tracing, Metrics, Enabled (-want +got):\n%s", d)
			}
		})
	}
}

func TestSetupErrors(t *testing.T) {
	boom := errors.New("boom")
	var shutdownCalled bool
	ex := exporters{
		spans: func(context.Context) (sdktrace.SpanExporter, error) {
			return shutdownRecorder{&shutdownCalled}, nil
		},
		metrics: func(context.Context) (sdkmetric.Reader, error) { return nil, boom },
	}
	_, _, err := setup(t.Context(), envOf(map[string]string{telemetry.EnvTracesExporter: "otlp", telemetry.EnvMetricsExporter: "bogus"}), ex)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "OTEL_METRICS_EXPORTER=bogus") {
		t.Errorf("err = %v, want boom naming OTEL_METRICS_EXPORTER=bogus", err)
	}
	if !shutdownCalled {
		t.Error("the span exporter made before the failure was not shut down")
	}
	_, _, err = setup(t.Context(), envOf(map[string]string{telemetry.EnvSDKDisabled: "yes"}), ex)
	if err == nil || !strings.Contains(err.Error(), telemetry.EnvSDKDisabled) {
		t.Errorf("OTEL_SDK_DISABLED=yes: err = %v, want an error naming it", err)
	}
}

type shutdownRecorder struct{ called *bool }

func (shutdownRecorder) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (s shutdownRecorder) Shutdown(context.Context) error {
	*s.called = true
	return nil
}

// TestSetupOTLP runs the real exporters with OTLP over HTTP to a loopback
// collector, all settings read from the process environment as the agent
// does, and checks that a span and a metric reach it; and that "none" is
// off.
func TestSetupOTLP(t *testing.T) {
	var mu sync.Mutex
	var got []string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+r.Header.Get("X-Test")+" "+fmt.Sprint(len(body) > 0))
		mu.Unlock()
	}))
	defer collector.Close()
	env := map[string]string{telemetry.EnvTracesExporter: "otlp", telemetry.EnvMetricsExporter: "otlp"}
	for k, v := range env {
		t.Setenv(k, v)
	}
	t.Setenv(envOTLPProtocol, "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "X-Test=yes")
	p, shutdown, err := Setup(t.Context(), os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	_, span := p.Tracer().Start(t.Context(), "test", trace.WithSpanKind(trace.SpanKindInternal))
	span.End()
	counter, err := p.Meter().Int64Counter("test.count")
	if err != nil {
		t.Fatal(err)
	}
	counter.Add(t.Context(), 1)
	if err := shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(got)
	want := []string{
		"POST /v1/metrics application/x-protobuf yes true",
		"POST /v1/traces application/x-protobuf yes true",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("collector requests (-want +got):\n%s", d)
	}

	none := map[string]string{telemetry.EnvTracesExporter: "none", telemetry.EnvMetricsExporter: "none"}
	p, _, err = Setup(t.Context(), envOf(none))
	if err != nil || p.Enabled() {
		t.Errorf("none: Enabled = %v, err = %v; want off", p.Enabled(), err)
	}
}

// TestExporterChoice checks which exporters the variables make: OTLP over
// HTTP and the console; gRPC, Prometheus and unknown names are errors
// that say what to use instead.
func TestExporterChoice(t *testing.T) {
	// The OTLP exporters flush to a loopback collector at shutdown, and the
	// console ones to a file rather than the test's output.
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	stdout := os.Stdout
	f, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = f
	defer func() { os.Stdout = stdout; f.Close() }()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string // a part of the error; "" for none
	}{
		{"console traces", map[string]string{telemetry.EnvTracesExporter: "console"}, ""},
		{"console metrics", map[string]string{telemetry.EnvMetricsExporter: " Console "}, ""},
		{"otlp default protocol", map[string]string{telemetry.EnvTracesExporter: "otlp"}, ""},
		{"otlp http", map[string]string{telemetry.EnvTracesExporter: "otlp", envOTLPProtocol: "http/protobuf"}, ""},
		{"signal protocol wins", map[string]string{telemetry.EnvMetricsExporter: "otlp", envOTLPProtocol: "grpc", envOTLPMetricsProtocol: "http/protobuf"}, ""},
		{"grpc traces", map[string]string{telemetry.EnvTracesExporter: "otlp", envOTLPProtocol: "grpc"},
			"OTEL_TRACES_EXPORTER=otlp: OTEL_EXPORTER_OTLP_PROTOCOL=grpc: OTLP over gRPC is not built in; use http/protobuf"},
		{"grpc metrics by signal", map[string]string{telemetry.EnvMetricsExporter: "otlp", envOTLPMetricsProtocol: "grpc"},
			"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=grpc: OTLP over gRPC is not built in"},
		{"grpc traces by signal", map[string]string{telemetry.EnvTracesExporter: "otlp", envOTLPTracesProtocol: "grpc", envOTLPProtocol: "http/protobuf"},
			"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc"},
		{"http/json", map[string]string{telemetry.EnvTracesExporter: "otlp", envOTLPProtocol: "http/json"},
			"OTEL_EXPORTER_OTLP_PROTOCOL=http/json: unknown OTLP protocol; want http/protobuf"},
		{"bad otlp timeout", map[string]string{telemetry.EnvTracesExporter: "otlp", "OTEL_EXPORTER_OTLP_TIMEOUT": "10s"},
			`OTEL_TRACES_EXPORTER=otlp: OTEL_EXPORTER_OTLP_TIMEOUT: "10s" is not a number of milliseconds`},
		{"bad otlp metrics endpoint", map[string]string{telemetry.EnvMetricsExporter: "otlp", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "collector:4318"},
			`OTEL_METRICS_EXPORTER=otlp: OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: collector:4318: want an http or https URL`},
		{"otlp client key alone", map[string]string{telemetry.EnvTracesExporter: "otlp", "OTEL_EXPORTER_OTLP_CLIENT_KEY": "/nonexistent"},
			`OTEL_EXPORTER_OTLP_CLIENT_KEY is set without OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE`},
		{"prometheus", map[string]string{telemetry.EnvMetricsExporter: "prometheus"},
			"OTEL_METRICS_EXPORTER=prometheus: the Prometheus exporter is not built in: export with otlp"},
		{"unknown traces", map[string]string{telemetry.EnvTracesExporter: "zipkin"},
			`OTEL_TRACES_EXPORTER=zipkin: unknown exporter "zipkin": want one of otlp, console or none`},
		{"unknown metrics", map[string]string{telemetry.EnvMetricsExporter: "statsd"},
			`unknown exporter "statsd"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string {
				if v, ok := tc.env[k]; ok {
					return v
				}
				return os.Getenv(k) // the collector's endpoint
			}
			p, shutdown, err := setup(t.Context(), getenv, envExporters(getenv))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				if !p.Enabled() {
					t.Error("telemetry is off, want on")
				}
				if err := shutdown(t.Context()); err != nil {
					t.Errorf("shutdown: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
