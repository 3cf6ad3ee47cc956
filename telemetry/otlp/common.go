package otlp

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
)

// Field numbers of opentelemetry/proto/common/v1/common.proto and
// resource/v1/resource.proto (opentelemetry-proto v1.x).
const (
	anyString = 1
	anyBool   = 2
	anyInt    = 3
	anyDouble = 4
	anyArray  = 5
	anyKVList = 6
	anyBytes  = 7

	arrayValues  = 1 // ArrayValue.values
	kvlistValues = 1 // KeyValueList.values
	kvKey        = 1 // KeyValue.key
	kvValue      = 2 // KeyValue.value

	scopeName       = 1 // InstrumentationScope
	scopeVersion    = 2
	scopeAttributes = 3

	resourceAttributes = 1 // Resource
)

// attributes writes each attribute as a KeyValue in field.
func (e *enc) attributes(field int, kvs []attribute.KeyValue) {
	for _, kv := range kvs {
		e.message(field, func() {
			e.stringAlways(kvKey, string(kv.Key))
			e.message(kvValue, func() { e.anyValue(kv.Value) })
		})
	}
}

// attributeSet writes an attribute.Set, in its (sorted) order.
func (e *enc) attributeSet(field int, s attribute.Set) {
	for it := s.Iter(); it.Next(); {
		kv := it.Attribute()
		e.message(field, func() {
			e.stringAlways(kvKey, string(kv.Key))
			e.message(kvValue, func() { e.anyValue(kv.Value) })
		})
	}
}

// anyValue writes the fields of an AnyValue. An empty value is an
// AnyValue with no field set.
func (e *enc) anyValue(v attribute.Value) {
	switch v.Type() {
	case attribute.BOOL:
		e.boolAlways(anyBool, v.AsBool())
	case attribute.INT64:
		e.int64Always(anyInt, v.AsInt64())
	case attribute.FLOAT64:
		e.doubleAlways(anyDouble, v.AsFloat64())
	case attribute.STRING:
		e.stringAlways(anyString, v.AsString())
	case attribute.BYTESLICE:
		e.bytesAlways(anyBytes, v.AsByteSlice())
	case attribute.BOOLSLICE:
		e.message(anyArray, func() {
			for _, b := range v.AsBoolSlice() {
				e.message(arrayValues, func() { e.boolAlways(anyBool, b) })
			}
		})
	case attribute.INT64SLICE:
		e.message(anyArray, func() {
			for _, i := range v.AsInt64Slice() {
				e.message(arrayValues, func() { e.int64Always(anyInt, i) })
			}
		})
	case attribute.FLOAT64SLICE:
		e.message(anyArray, func() {
			for _, f := range v.AsFloat64Slice() {
				e.message(arrayValues, func() { e.doubleAlways(anyDouble, f) })
			}
		})
	case attribute.STRINGSLICE:
		e.message(anyArray, func() {
			for _, s := range v.AsStringSlice() {
				e.message(arrayValues, func() { e.stringAlways(anyString, s) })
			}
		})
	case attribute.SLICE:
		e.message(anyArray, func() {
			for _, x := range v.AsSlice() {
				e.message(arrayValues, func() { e.anyValue(x) })
			}
		})
	case attribute.MAP:
		e.message(anyKVList, func() { e.attributes(kvlistValues, v.AsMap()) })
	}
}

// resource writes a Resource message in field; a nil resource is the
// empty one.
func (e *enc) resource(field int, r *resource.Resource) {
	e.message(field, func() {
		if r != nil {
			e.attributeSet(resourceAttributes, *r.Set())
		}
	})
}

// scope writes an InstrumentationScope message in field.
func (e *enc) scope(field int, s instrumentation.Scope) {
	e.message(field, func() {
		e.string(scopeName, s.Name)
		e.string(scopeVersion, s.Version)
		e.attributeSet(scopeAttributes, s.Attributes)
	})
}

// unixNano is t in nanoseconds since the Unix epoch, 0 for the zero time
// and times before 1970.
func unixNano(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(max(0, t.UnixNano()))
}

// clampUint32 is n as a uint32 count, bounded to its range.
func clampUint32(n int) uint64 { return min(uint64(max(n, 0)), 1<<32-1) }
