package telemetry

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolreg/toolreg/registry"
)

func TestErrorType(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("x"), ErrorOther},
		{&registry.Error{Tool: "t", Kind: registry.KindTool}, "tool_error"},
		{fmt.Errorf("wrapped: %w", &registry.Error{Tool: "t", Kind: registry.KindTimeout}), "timeout"},
		{&registry.Error{Tool: "t", Kind: registry.KindRemote}, "remote_unavailable"},
		{&registry.Error{Tool: "t", Kind: registry.Kind(200)}, ErrorOther},
	} {
		if got := ErrorType(tc.err); got != tc.want {
			t.Errorf("ErrorType(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestContent(t *testing.T) {
	secret := `{"q":"x","auth":"Authorization: Bearer abcdefgh12345678"}`
	if _, ok := (&Providers{}).ContentToRecord(secret); ok {
		t.Error("content recorded without RecordContent")
	}
	if _, ok := (*Providers)(nil).ContentToRecord(secret); ok {
		t.Error("content recorded by nil providers")
	}
	got, ok := (&Providers{RecordContent: true}).ContentToRecord(secret)
	if !ok || strings.Contains(got, "abcdefgh12345678") || !strings.Contains(got, `"q":"x"`) {
		t.Errorf("ContentToRecord = %q, %v; want the text with the token redacted", got, ok)
	}
	got, _ = (&Providers{RecordContent: true, Redact: strings.ToUpper}).ContentToRecord("abc")
	if got != "ABC" {
		t.Errorf("ContentToRecord with Redact = %q, want ABC", got)
	}
}

func TestMetaCarrier(t *testing.T) {
	p := &Providers{}
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5}, TraceFlags: trace.FlagsSampled,
	})
	meta := MetaCarrier{"progressToken": 7}
	p.TextMapPropagator().Inject(trace.ContextWithSpanContext(t.Context(), sc), meta)
	if got, want := meta.Get("traceparent"), "00-01020300000000000000000000000000-0405000000000000-01"; got != want {
		t.Errorf("traceparent = %q, want %q", got, want)
	}
	back := trace.SpanContextFromContext(p.TextMapPropagator().Extract(t.Context(), meta))
	if !back.Equal(sc.WithRemote(true)) {
		t.Errorf("extracted %v, want %v", back, sc)
	}
	if d := cmp.Diff([]string{"traceparent"}, meta.Keys()); d != "" {
		t.Errorf("Keys (-want +got):\n%s", d)
	}
}

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		p                        *Providers
		tracing, metrics, enable bool
	}{
		{"nil", nil, false, false, false},
		{"zero", &Providers{}, false, false, false},
		{"off", Noop(), false, false, false},
	} {
		if got := []bool{tc.p.Tracing(), tc.p.Metrics(), tc.p.Enabled()}; !slicesEqual(got, []bool{tc.tracing, tc.metrics, tc.enable}) {
			t.Errorf("%s: Tracing, Metrics, Enabled = %v", tc.name, got)
		}
		// Noop providers still give working tracers and meters.
		_, span := tc.p.Tracer().Start(t.Context(), "x")
		span.End()
		if span.IsRecording() {
			t.Errorf("%s: the span records", tc.name)
		}
	}
}

func slicesEqual(a, b []bool) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
