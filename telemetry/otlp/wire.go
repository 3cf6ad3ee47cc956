package otlp

import (
	"encoding/binary"
	"errors"
	"math"
)

// Protocol buffers wire types (https://protobuf.dev/programming-guides/encoding/).
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// enc appends protocol buffers fields to a byte slice. Fields equal to their
// type's zero value are left out, as proto3 does for fields without
// presence; the methods whose name ends in Always write them anyway, for
// optional fields and oneof members.
type enc struct{ b []byte }

func (e *enc) tag(field, wire int) { e.b = binary.AppendUvarint(e.b, uint64(field)<<3|uint64(wire)) }

func (e *enc) uvarint(field int, v uint64) {
	if v != 0 {
		e.uvarintAlways(field, v)
	}
}

func (e *enc) uvarintAlways(field int, v uint64) {
	e.tag(field, wireVarint)
	e.b = binary.AppendUvarint(e.b, v)
}

// int64 writes an int64 field (not sint64): negative values take ten bytes.
func (e *enc) int64Always(field int, v int64) { e.uvarintAlways(field, uint64(v)) }

// sint32 writes a zigzag-encoded sint32 field.
func (e *enc) sint32(field int, v int32) {
	if v != 0 {
		e.uvarintAlways(field, uint64(uint32(v<<1)^uint32(v>>31)))
	}
}

func (e *enc) boolAlways(field int, v bool) {
	var u uint64
	if v {
		u = 1
	}
	e.uvarintAlways(field, u)
}

func (e *enc) fixed64(field int, v uint64) {
	if v != 0 {
		e.fixed64Always(field, v)
	}
}

func (e *enc) fixed64Always(field int, v uint64) {
	e.tag(field, wireFixed64)
	e.b = binary.LittleEndian.AppendUint64(e.b, v)
}

func (e *enc) fixed32(field int, v uint32) {
	if v != 0 {
		e.tag(field, wireFixed32)
		e.b = binary.LittleEndian.AppendUint32(e.b, v)
	}
}

func (e *enc) double(field int, v float64) {
	if v != 0 || math.Signbit(v) {
		e.doubleAlways(field, v)
	}
}

func (e *enc) doubleAlways(field int, v float64) { e.fixed64Always(field, math.Float64bits(v)) }

func (e *enc) string(field int, s string) {
	if s != "" {
		e.stringAlways(field, s)
	}
}

func (e *enc) stringAlways(field int, s string) {
	e.tag(field, wireBytes)
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *enc) bytes(field int, p []byte) {
	if len(p) != 0 {
		e.bytesAlways(field, p)
	}
}

func (e *enc) bytesAlways(field int, p []byte) {
	e.tag(field, wireBytes)
	e.b = binary.AppendUvarint(e.b, uint64(len(p)))
	e.b = append(e.b, p...)
}

// packedFixed64 writes a packed repeated fixed64 field.
func (e *enc) packedFixed64(field int, vs []uint64) {
	if len(vs) == 0 {
		return
	}
	e.tag(field, wireBytes)
	e.b = binary.AppendUvarint(e.b, uint64(8*len(vs)))
	for _, v := range vs {
		e.b = binary.LittleEndian.AppendUint64(e.b, v)
	}
}

// packedDouble writes a packed repeated double field.
func (e *enc) packedDouble(field int, vs []float64) {
	if len(vs) == 0 {
		return
	}
	e.tag(field, wireBytes)
	e.b = binary.AppendUvarint(e.b, uint64(8*len(vs)))
	for _, v := range vs {
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
	}
}

// packedUvarint writes a packed repeated uint64 field.
func (e *enc) packedUvarint(field int, vs []uint64) {
	if len(vs) == 0 {
		return
	}
	e.message(field, func() {
		for _, v := range vs {
			e.b = binary.AppendUvarint(e.b, v)
		}
	})
}

// message writes an embedded message (or any length-delimited field) whose
// content body appends; it is written even when empty. The content is
// appended in place and then moved right by the size of its length prefix,
// so nested messages cost no buffer of their own.
func (e *enc) message(field int, body func()) {
	e.tag(field, wireBytes)
	start := len(e.b)
	body()
	n := len(e.b) - start
	var prefix [binary.MaxVarintLen64]byte
	p := binary.PutUvarint(prefix[:], uint64(n))
	e.b = append(e.b, prefix[:p]...) // grow by p
	copy(e.b[start+p:], e.b[start:start+n])
	copy(e.b[start:], prefix[:p])
}

// errTruncated is the error for a message that ends inside a field.
var errTruncated = errors.New("truncated protocol buffers message")

// dec reads protocol buffers fields, for the collectors' responses.
type dec struct{ b []byte }

// next reads the next field's number and wire type; ok is false at the end.
func (d *dec) next() (field, wire int, err error) {
	v, err := d.uvarint()
	if err != nil {
		return 0, 0, err
	}
	if v>>3 == 0 || v>>3 > math.MaxInt32 {
		return 0, 0, errors.New("bad field number")
	}
	return int(v >> 3), int(v & 7), nil
}

func (d *dec) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		return 0, errTruncated
	}
	d.b = d.b[n:]
	return v, nil
}

// bytes reads a length-delimited field's content.
func (d *dec) bytes() ([]byte, error) {
	n, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(d.b)) {
		return nil, errTruncated
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p, nil
}

// skip skips a field of the given wire type.
func (d *dec) skip(wire int) error {
	var n int
	switch wire {
	case wireVarint:
		_, err := d.uvarint()
		return err
	case wireBytes:
		_, err := d.bytes()
		return err
	case wireFixed64:
		n = 8
	case wireFixed32:
		n = 4
	default:
		return errors.New("unsupported wire type")
	}
	if len(d.b) < n {
		return errTruncated
	}
	d.b = d.b[n:]
	return nil
}
