package telemetry

import (
	"errors"

	"go.opentelemetry.io/otel/propagation"

	"github.com/toolreg/toolreg/registry"
)

// ErrorOther is the error.type of a failure of no known kind, as the
// semantic conventions name it.
const ErrorOther = "_OTHER"

// errorTypes are the error.type values of the registry's kinds of failure:
// low-cardinality identifiers, stable across releases.
var errorTypes = map[registry.Kind]string{
	registry.KindTool:        "tool_error",
	registry.KindUnknownTool: "unknown_tool",
	registry.KindArguments:   "invalid_arguments",
	registry.KindRefused:     "refused",
	registry.KindTimeout:     "timeout",
	registry.KindPanic:       "panic",
	registry.KindCancelled:   "cancelled",
	registry.KindRemote:      "remote_unavailable",
	registry.KindCrashed:     "crashed",
	registry.KindNotStarted:  "not_started",
}

// ErrorType returns the error.type of a failed call: the kind of its
// *registry.Error, or ErrorOther. It returns "" for nil.
func ErrorType(err error) string {
	if err == nil {
		return ""
	}
	var re *registry.Error
	if errors.As(err, &re) {
		if t, ok := errorTypes[re.Kind]; ok {
			return t
		}
	}
	return ErrorOther
}

// MetaCarrier adapts an MCP params._meta map to a propagation carrier:
// the W3C traceparent and tracestate (and baggage) are string entries of
// _meta, as the MCP semantic conventions say.
type MetaCarrier map[string]any

var _ propagation.TextMapCarrier = MetaCarrier(nil)

// Get returns the string value of key, or "".
func (m MetaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

// Set sets key to value.
func (m MetaCarrier) Set(key, value string) { m[key] = value }

// Keys returns the keys whose values are strings.
func (m MetaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if _, ok := v.(string); ok {
			keys = append(keys, k)
		}
	}
	return keys
}
