package toolmcp

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolreg/toolreg/internal/origin"
	"github.com/toolreg/toolreg/telemetry"
)

// methodToolsCall is the MCP method of a tool call.
const methodToolsCall = "tools/call"

// serverTelemetry returns the middleware that traces every MCP request the
// server receives, after the MCP semantic conventions (semconv v1.41.0): a
// server span "{mcp.method.name} {tool}" (the tool for tools/call only)
// whose parent is the trace context of the request's params._meta
// (traceparent, tracestate) or, failing that, of its HTTP headers; and the
// metric mcp.server.operation.duration.
//
// A tool's name is recorded only when the server has the tool (known):
// the name of a call of any other is the client's to make up, of any
// length, and each new one would be a data point of the metric, kept for
// as long as the process lives.
func serverTelemetry(p *telemetry.Providers, known func(tool string) bool) mcp.Middleware {
	tracer := p.Tracer()
	duration, _ := mcpconv.NewServerOperationDuration(p.Meter()) // a working no-op instrument on error
	prop := p.TextMapPropagator()
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			start := time.Now()
			attrs := []attribute.KeyValue{semconv.McpMethodNameKey.String(method)}
			name := method
			params := requestParams(req)
			if params != nil {
				if meta := params.GetMeta(); len(meta) > 0 {
					ctx = prop.Extract(ctx, telemetry.MetaCarrier(meta))
				}
			}
			var args string
			if call, ok := params.(*mcp.CallToolParamsRaw); ok {
				if known(call.Name) {
					name += " " + call.Name
					attrs = append(attrs, semconv.GenAIToolName(call.Name))
				}
				attrs = append(attrs, semconv.GenAIOperationNameExecuteTool)
				args = string(call.Arguments)
			}
			if s := req.GetSession(); s != nil && s.ID() != "" {
				attrs = append(attrs, semconv.McpSessionID(s.ID()))
			}
			ctx, span := tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
			defer span.End()
			outcome := &callOutcome{}
			ctx = context.WithValue(ctx, outcomeKey{}, outcome)
			if text, ok := p.ContentToRecord(args); ok && args != "" {
				span.SetAttributes(semconv.GenAIToolCallArgumentsKey.String(text))
			}
			res, err := next(ctx, method, req)
			errorType := ""
			var werr *jsonrpc.Error
			switch {
			case errors.As(err, &werr):
				code := strconv.FormatInt(werr.Code, 10)
				errorType = code
				attrs = append(attrs, semconv.RPCResponseStatusCode(code))
				span.SetAttributes(semconv.RPCResponseStatusCode(code))
			case err != nil:
				errorType = telemetry.ErrorOther
			}
			if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
				if r.IsError && errorType == "" {
					// The registry's kind of failure when the handler
					// told it, else what the conventions say of isError.
					errorType = cmp.Or(telemetry.ErrorType(outcome.err), "tool_error")
				}
				if text, ok := p.ContentToRecord(resultText(r)); ok {
					span.SetAttributes(semconv.GenAIToolCallResultKey.String(text))
				}
			}
			if errorType != "" {
				attrs = append(attrs, semconv.ErrorTypeKey.String(errorType))
				span.SetAttributes(semconv.ErrorTypeKey.String(errorType))
				span.SetStatus(codes.Error, errorType)
			}
			duration.Record(ctx, time.Since(start).Seconds(), mcpconv.MethodNameAttr(method), attrs[1:]...)
			return res, err
		}
	}
}

// callOutcome is where a tool handler leaves the registry's error of a
// failed call for the telemetry middleware, which sees only the result.
type callOutcome struct{ err error }

type outcomeKey struct{}

// recordOutcome tells the middleware, if any, how the call of ctx failed.
func recordOutcome(ctx context.Context, err error) {
	if o, ok := ctx.Value(outcomeKey{}).(*callOutcome); ok {
		o.err = err
	}
}

// requestParams returns the params of req, or nil when it has none.
func requestParams(req mcp.Request) mcp.Params {
	if req == nil {
		return nil
	}
	p := req.GetParams()
	if p == nil {
		return nil
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return p
}

// withTraceHeaders puts the trace context of the request's HTTP headers
// (traceparent, tracestate) into its context, for clients that send it
// there rather than in params._meta.
func withTraceHeaders(next http.Handler, prop propagation.TextMapPropagator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("traceparent") != "" {
			r = r.WithContext(prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header)))
		}
		next.ServeHTTP(w, r)
	})
}

// clientTelemetry traces the calls of mounted tools: a client span
// "tools/call TOOL", whose context travels to the server in the call's
// params._meta (and, over HTTP, its headers).
type clientTelemetry struct {
	p        *telemetry.Providers
	tracer   trace.Tracer
	duration mcpconv.ClientOperationDuration
}

// newClientTelemetry returns the client telemetry of p, nil when p is off.
func newClientTelemetry(p *telemetry.Providers) *clientTelemetry {
	if !p.Enabled() {
		return nil
	}
	ct := &clientTelemetry{p: p, tracer: p.Tracer()}
	ct.duration, _ = mcpconv.NewClientOperationDuration(p.Meter()) // a working no-op instrument on error
	return ct
}

// startCall starts the client span of a call of remote on server, and
// writes its trace context into params' _meta.
// The returned function ends the span with the call's error.type, ""
// for success.
func (ct *clientTelemetry) startCall(ctx context.Context, server, remote string, params *mcp.CallToolParams) (context.Context, func(errorType string)) {
	if ct == nil {
		return ctx, func(string) {}
	}
	start := time.Now()
	attrs := []attribute.KeyValue{
		semconv.McpMethodNameKey.String(methodToolsCall),
		semconv.GenAIToolName(remote),
		semconv.GenAIOperationNameExecuteTool,
	}
	ctx, span := ct.tracer.Start(ctx, methodToolsCall+" "+remote, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attrs...), trace.WithAttributes(attribute.String("toolreg.mcp.server", server)))
	meta := telemetry.MetaCarrier(params.GetMeta())
	if meta == nil {
		meta = telemetry.MetaCarrier{}
	}
	ct.p.TextMapPropagator().Inject(ctx, meta)
	params.SetMeta(meta)
	return ctx, func(et string) {
		if et != "" {
			attrs = append(attrs, semconv.ErrorTypeKey.String(et))
			span.SetAttributes(semconv.ErrorTypeKey.String(et))
			span.SetStatus(codes.Error, et)
		}
		ct.duration.Record(ctx, time.Since(start).Seconds(), mcpconv.MethodNameToolsCall, attrs[1:]...)
		span.End()
	}
}

// traceTransport writes the trace context of each request's context into
// its headers (traceparent, tracestate, baggage), for HTTP servers that
// read it there: only into the requests to the server's own origin, not
// along a redirect elsewhere (the baggage may hold what the caller put
// in it).
type traceTransport struct {
	base   http.RoundTripper
	prop   propagation.TextMapPropagator
	origin origin.Origin
}

func (t *traceTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.origin.Has(r.URL) && trace.SpanContextFromContext(r.Context()).IsValid() {
		r = r.Clone(r.Context())
		t.prop.Inject(r.Context(), propagation.HeaderCarrier(r.Header))
	}
	return t.base.RoundTrip(r)
}
