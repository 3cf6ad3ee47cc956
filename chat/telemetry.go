package chat

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/genaiconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/telemetry"
)

// DefaultProvider is the gen_ai.provider.name of a Conversation whose
// Provider is empty: the endpoints speak OpenAI's protocol.
const DefaultProvider = "openai"

// instruments trace and measure a conversation after the GenAI semantic
// conventions (semconv v1.41.0): a span invoke_agent per turn, chat MODEL
// per model request and execute_tool NAME per tool call, and the metrics
// gen_ai.client.operation.duration and gen_ai.client.token.usage. A nil
// *instruments does nothing and allocates nothing.
type instruments struct {
	p        *telemetry.Providers
	tracer   trace.Tracer
	duration genaiconv.ClientOperationDuration
	tokens   genaiconv.ClientTokenUsage
	provider string
	model    string
	// common are the attributes of every chat span and metric, the
	// provider first.
	common []attribute.KeyValue
}

// newInstruments returns the instruments of c, nil when its telemetry is
// off.
func newInstruments(c *Conversation) *instruments {
	if !c.Telemetry.Enabled() || c.Client == nil {
		return nil
	}
	in := &instruments{p: c.Telemetry, tracer: c.Telemetry.Tracer(), provider: c.Provider, model: c.Client.Model}
	if in.provider == "" {
		in.provider = DefaultProvider
	}
	meter := c.Telemetry.Meter()
	// The constructors return working no-op instruments with their error.
	in.duration, _ = genaiconv.NewClientOperationDuration(meter)
	in.tokens, _ = genaiconv.NewClientTokenUsage(meter)
	in.common = []attribute.KeyValue{
		semconv.GenAIProviderNameKey.String(in.provider),
		semconv.GenAIRequestModel(in.model),
	}
	if u, err := url.Parse(strings.TrimSpace(c.Client.BaseURL)); err == nil && u.Hostname() != "" {
		in.common = append(in.common, semconv.ServerAddress(u.Hostname()))
		if port, err := strconv.Atoi(u.Port()); err == nil {
			in.common = append(in.common, semconv.ServerPort(port))
		} else if p, ok := defaultPorts[u.Scheme]; ok {
			in.common = append(in.common, semconv.ServerPort(p))
		}
	}
	return in
}

var defaultPorts = map[string]int{"http": 80, "https": 443}

// opSpan is one traced operation; its zero value (telemetry off) does
// nothing.
type opSpan struct {
	in    *instruments
	span  trace.Span
	start time.Time
}

// startTurn starts the invoke_agent span of a turn.
func (in *instruments) startTurn(ctx context.Context, session string) (context.Context, opSpan) {
	if in == nil {
		return ctx, opSpan{}
	}
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameInvokeAgent,
		semconv.GenAIProviderNameKey.String(in.provider),
		semconv.GenAIRequestModel(in.model),
	}
	if session != "" {
		attrs = append(attrs, semconv.GenAIConversationID(session))
	}
	ctx, span := in.tracer.Start(ctx, "invoke_agent", trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return ctx, opSpan{in: in, span: span, start: time.Now()}
}

// endTurn ends a turn's span with the tokens its requests used.
func (s opSpan) endTurn(used Usage, err error) {
	if s.in == nil {
		return
	}
	s.span.SetAttributes(
		semconv.GenAIUsageInputTokens(used.PromptTokens),
		semconv.GenAIUsageOutputTokens(used.CompletionTokens))
	s.fail(chatErrorType(err), err)
	s.span.End()
}

// startChat starts the span of one model request.
func (in *instruments) startChat(ctx context.Context) (context.Context, opSpan) {
	if in == nil {
		return ctx, opSpan{}
	}
	ctx, span := in.tracer.Start(ctx, "chat "+in.model, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(semconv.GenAIOperationNameChat), trace.WithAttributes(in.common...))
	return ctx, opSpan{in: in, span: span, start: time.Now()}
}

// endChat ends a model request's span and records its duration and token
// usage.
func (s opSpan) endChat(ctx context.Context, resp *Response, err error) {
	in := s.in
	if in == nil {
		return
	}
	attrs := append([]attribute.KeyValue(nil), in.common...)
	if resp != nil && resp.Model != "" {
		attrs = append(attrs, semconv.GenAIResponseModel(resp.Model))
	}
	et := chatErrorType(err)
	if et != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(et))
	}
	in.duration.Record(ctx, time.Since(s.start).Seconds(), genaiconv.OperationNameChat, genaiconv.ProviderNameAttr(in.provider), attrs[1:]...)
	if resp != nil {
		if resp.Model != "" {
			s.span.SetAttributes(semconv.GenAIResponseModel(resp.Model))
		}
		if resp.FinishReason != "" {
			s.span.SetAttributes(semconv.GenAIResponseFinishReasons(resp.FinishReason))
		}
		if u := resp.Usage; u != nil {
			s.span.SetAttributes(semconv.GenAIUsageInputTokens(u.PromptTokens), semconv.GenAIUsageOutputTokens(u.CompletionTokens))
			in.tokens.Record(ctx, int64(u.PromptTokens), genaiconv.OperationNameChat, genaiconv.ProviderNameAttr(in.provider), genaiconv.TokenTypeInput, attrs[1:]...)
			in.tokens.Record(ctx, int64(u.CompletionTokens), genaiconv.OperationNameChat, genaiconv.ProviderNameAttr(in.provider), genaiconv.TokenTypeOutput, attrs[1:]...)
		}
	}
	s.fail(et, err)
	s.span.End()
}

// startTool starts the execute_tool span of one tool call.
func (in *instruments) startTool(ctx context.Context, tc ToolCall) (context.Context, opSpan) {
	if in == nil {
		return ctx, opSpan{}
	}
	name := clip.String(tc.Function.Name, maxToolNameShown)
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameExecuteTool,
		semconv.GenAIToolName(name),
		semconv.GenAIToolCallID(clip.String(tc.ID, maxToolNameShown)),
		semconv.GenAIToolTypeKey.String("function"),
	}
	if args, ok := in.p.ContentToRecord(tc.Function.Arguments); ok {
		attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(args))
	}
	ctx, span := in.tracer.Start(ctx, "execute_tool "+name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return ctx, opSpan{in: in, span: span, start: time.Now()}
}

// endTool ends a tool call's span; a failure's error.type is the kind of
// its registry error.
func (s opSpan) endTool(res registry.Result) {
	if s.in == nil {
		return
	}
	if text, ok := s.in.p.ContentToRecord(res.Text); ok {
		s.span.SetAttributes(semconv.GenAIToolCallResultKey.String(text))
	}
	s.fail(telemetry.ErrorType(res.Err), res.Err)
	s.span.End()
}

// fail marks the span failed when errorType is not empty. The error's text
// is its description only when content is recorded: it may quote the
// arguments.
func (s opSpan) fail(errorType string, err error) {
	if errorType == "" {
		return
	}
	s.span.SetAttributes(semconv.ErrorTypeKey.String(errorType))
	desc := errorType
	if text, ok := s.in.p.ContentToRecord(err.Error()); ok {
		desc = text
	}
	s.span.SetStatus(codes.Error, desc)
}

// chatErrorType returns the error.type of a failed request or turn: the
// HTTP status of an error answer, or a short name for the other failures.
func chatErrorType(err error) string {
	var apiErr *APIError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &apiErr) && apiErr.StatusCode != 0:
		return strconv.Itoa(apiErr.StatusCode)
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, ErrMaxSteps):
		return "max_steps"
	case errors.Is(err, ErrStreamTruncated):
		return "stream_truncated"
	case errors.Is(err, ErrStreamTooLarge):
		return "stream_too_large"
	case errors.Is(err, ErrTooManyToolCalls):
		return "too_many_tool_calls"
	}
	return telemetry.ErrorOther
}
