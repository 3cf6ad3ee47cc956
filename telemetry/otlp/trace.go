package otlp

import (
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Field numbers of opentelemetry/proto/trace/v1/trace.proto and
// collector/trace/v1/trace_service.proto.
const (
	traceRequestResourceSpans = 1 // ExportTraceServiceRequest

	resourceSpansResource   = 1 // ResourceSpans
	resourceSpansScopeSpans = 2
	resourceSpansSchemaURL  = 3

	scopeSpansScope     = 1 // ScopeSpans
	scopeSpansSpans     = 2
	scopeSpansSchemaURL = 3

	spanTraceID           = 1 // Span
	spanSpanID            = 2
	spanTraceState        = 3
	spanParentSpanID      = 4
	spanName              = 5
	spanKind              = 6
	spanStart             = 7
	spanEnd               = 8
	spanAttributes        = 9
	spanDroppedAttributes = 10
	spanEvents            = 11
	spanDroppedEvents     = 12
	spanLinks             = 13
	spanDroppedLinks      = 14
	spanStatus            = 15
	spanFlags             = 16

	eventTime              = 1 // Span.Event
	eventName              = 2
	eventAttributes        = 3
	eventDroppedAttributes = 4

	linkTraceID           = 1 // Span.Link
	linkSpanID            = 2
	linkTraceState        = 3
	linkAttributes        = 4
	linkDroppedAttributes = 5
	linkFlags             = 6

	statusMsg  = 2 // Status
	statusCode = 3

	statusUnset = 0 // Status.StatusCode
	statusOK    = 1
	statusError = 2

	flagsHasIsRemote = 0x100 // SpanFlags
	flagsIsRemote    = 0x200
)

// appendTraceRequest appends spans as an ExportTraceServiceRequest, one
// ResourceSpans per resource and one ScopeSpans per instrumentation scope,
// in the order each first appears.
func appendTraceRequest(b []byte, spans []sdktrace.ReadOnlySpan) []byte {
	type scopeKey struct {
		res   *resource.Resource
		scope instrumentation.Scope
	}
	var resources []*resource.Resource
	scopes := map[*resource.Resource][]instrumentation.Scope{}
	members := map[scopeKey][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		r, sc := s.Resource(), s.InstrumentationScope()
		k := scopeKey{r, sc}
		if _, ok := scopes[r]; !ok {
			resources = append(resources, r)
		}
		if _, ok := members[k]; !ok {
			scopes[r] = append(scopes[r], sc)
		}
		members[k] = append(members[k], s)
	}
	e := enc{b}
	for _, r := range resources {
		e.message(traceRequestResourceSpans, func() {
			e.resource(resourceSpansResource, r)
			for _, sc := range scopes[r] {
				e.message(resourceSpansScopeSpans, func() {
					e.scope(scopeSpansScope, sc)
					for _, s := range members[scopeKey{r, sc}] {
						e.message(scopeSpansSpans, func() { e.span(s) })
					}
					e.string(scopeSpansSchemaURL, sc.SchemaURL)
				})
			}
			if r != nil {
				e.string(resourceSpansSchemaURL, r.SchemaURL())
			}
		})
	}
	return e.b
}

// span writes the fields of a Span.
func (e *enc) span(s sdktrace.ReadOnlySpan) {
	sc, parent := s.SpanContext(), s.Parent()
	tid, sid := sc.TraceID(), sc.SpanID()
	e.bytes(spanTraceID, tid[:])
	e.bytes(spanSpanID, sid[:])
	e.string(spanTraceState, sc.TraceState().String())
	if parent.SpanID().IsValid() {
		pid := parent.SpanID()
		e.bytes(spanParentSpanID, pid[:])
	}
	e.string(spanName, s.Name())
	e.uvarint(spanKind, kind(s.SpanKind()))
	e.fixed64(spanStart, unixNano(s.StartTime()))
	e.fixed64(spanEnd, unixNano(s.EndTime()))
	e.attributes(spanAttributes, s.Attributes())
	e.uvarint(spanDroppedAttributes, clampUint32(s.DroppedAttributes()))
	for _, ev := range s.Events() {
		e.message(spanEvents, func() {
			e.fixed64(eventTime, unixNano(ev.Time))
			e.string(eventName, ev.Name)
			e.attributes(eventAttributes, ev.Attributes)
			e.uvarint(eventDroppedAttributes, clampUint32(ev.DroppedAttributeCount))
		})
	}
	e.uvarint(spanDroppedEvents, clampUint32(s.DroppedEvents()))
	for _, l := range s.Links() {
		e.message(spanLinks, func() {
			ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
			e.bytes(linkTraceID, ltid[:])
			e.bytes(linkSpanID, lsid[:])
			e.string(linkTraceState, l.SpanContext.TraceState().String())
			e.attributes(linkAttributes, l.Attributes)
			e.uvarint(linkDroppedAttributes, clampUint32(l.DroppedAttributeCount))
			e.fixed32(linkFlags, flags(l.SpanContext.TraceFlags(), l.SpanContext))
		})
	}
	e.uvarint(spanDroppedLinks, clampUint32(s.DroppedLinks()))
	st := s.Status()
	e.message(spanStatus, func() {
		e.string(statusMsg, st.Description)
		e.uvarint(statusCode, statusCodeOf(st.Code))
	})
	e.fixed32(spanFlags, flags(sc.TraceFlags(), parent))
}

// flags is a span's or link's flags field: the W3C trace flags in the low
// byte, and whether the parent (for a span) or the linked context (for a
// link) is remote.
func flags(tf trace.TraceFlags, remote trace.SpanContext) uint32 {
	f := uint32(tf) | flagsHasIsRemote
	if remote.IsRemote() {
		f |= flagsIsRemote
	}
	return f
}

// kind is the Span.SpanKind of k; the values agree with the API's.
func kind(k trace.SpanKind) uint64 {
	switch k {
	case trace.SpanKindInternal, trace.SpanKindServer, trace.SpanKindClient,
		trace.SpanKindProducer, trace.SpanKindConsumer:
		return uint64(k)
	}
	return 0
}

func statusCodeOf(c codes.Code) uint64 {
	switch c {
	case codes.Ok:
		return statusOK
	case codes.Error:
		return statusError
	}
	return statusUnset
}
