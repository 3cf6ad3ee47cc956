// Package otlp exports OpenTelemetry spans and metrics over OTLP/HTTP with
// binary protobuf (application/x-protobuf), the protocol every collector
// and backend accepts, for the OpenTelemetry Go SDK:
// [SpanExporter] is an sdktrace.SpanExporter (for a batch span processor)
// and [MetricExporter] an sdkmetric.Exporter (for a periodic reader).
// [FromEnv] reads their settings from the OTEL_EXPORTER_OTLP_* variables.
//
// It replaces go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp
// and .../otlpmetric/otlpmetrichttp, which build each request with
// google.golang.org/protobuf and the generated OTLP types, and with them
// link grpc, grpc-gateway and the proto registry into the program: 158
// packages and 10 MB in the agent, and package initialisation on every
// start of the agent and of each tool worker (see bench/results/otlp.md).
// Here the two request messages, ExportTraceServiceRequest and
// ExportMetricsServiceRequest, are written field by field from the SDK's
// data (wire.go has the few encoding helpers), with the field numbers of
// opentelemetry-proto v1.x. The tests decode what is sent with the official
// generated types and compare it with what the official exporters send for
// the same data.
//
// What is sent: spans with every field of the protocol (ids, trace state,
// parent, name, kind, times, attributes of every type as AnyValue, events,
// links, status, dropped counts, flags with the remote bits); metrics of
// every kind the SDK makes (sums with temporality and monotonicity, gauges,
// explicit bucket and exponential histograms with min and max, summaries),
// with their data points' attributes, times and exemplars.
//
// Delivery: one POST per export, to the signal's URL, optionally gzipped.
// 429, 502, 503 and 504 responses and transport errors are retried with
// exponential backoff from 1 s (jitter, at most 30 s between tries), or
// after the delay a Retry-After header gives, as long as the next attempt
// starts within the timeout (10 s by default), which bounds the whole
// export. Any other status is an error naming the URL (without a password)
// and the status, with the collector's message if it sends one. A 2xx
// response whose partial_success reports rejected items or a message is an
// error wrapping [ErrPartialSuccess]; the SDK passes export errors to the
// OpenTelemetry error handler, which logs them. Header values, which often
// carry API keys, appear in no error or log.
package otlp
