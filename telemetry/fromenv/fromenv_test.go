package fromenv

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
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

// TestSetupAutoexport runs the real autoexport with OTLP over HTTP to a
// loopback collector, and checks that a span reaches it; and that "none"
// with the real autoexport is off.
func TestSetupAutoexport(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
	}))
	defer collector.Close()
	env := map[string]string{telemetry.EnvTracesExporter: "otlp"}
	for k, v := range env {
		t.Setenv(k, v)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	p, shutdown, err := Setup(t.Context(), envOf(env))
	if err != nil {
		t.Fatal(err)
	}
	_, span := p.Tracer().Start(t.Context(), "test", trace.WithSpanKind(trace.SpanKindInternal))
	span.End()
	if err := shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if d := cmp.Diff([]string{"/v1/traces"}, paths); d != "" {
		t.Errorf("collector requests (-want +got):\n%s", d)
	}

	t.Setenv(telemetry.EnvTracesExporter, "none")
	p, _, err = Setup(t.Context(), envOf(map[string]string{telemetry.EnvTracesExporter: "none"}))
	if err != nil || p.Enabled() {
		t.Errorf("none: Enabled = %v, err = %v; want off", p.Enabled(), err)
	}
}
