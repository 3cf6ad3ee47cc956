package jsonarg

import (
	"math"
	"unsafe"
)

// Reader reads the value of one field of an object: Object calls the
// Reader of each field it meets. A Reader of a string, boolean or number
// is data, a pointer to the field's variable and the field's bounds, made
// by String, Bool, Int and the others (a pattern and enum values, which
// are static, are in the Fields); ReadFunc makes one of any other value from
// a function. Generated decoders list an object's Readers in one
// composite literal, a line a field, so that a field costs no function of
// its own to compile, and the list lives on the decoder's stack.
//
// The constructors are marked go:noinline: inlined into the generated
// decoders, they doubled the time to compile a registry (a synthetic one
// of 1,000 tools: 20 s, against 10 to 14 s not inlined, beside 10 s for its
// tool package), for a few nanoseconds a field at run time.
type Reader struct {
	kind readerKind
	// p points to the variable, for the scalar kinds: a *string, *bool,
	// or a pointer to one of the integer or float types.
	p any
	// lo and hi are the bounds: of a string's length (as int64), of a
	// signed integer (as int64), of an unsigned one, or of a float (its
	// bits), each as uint64.
	lo, hi uint64
	fn     func() error
}

type readerKind uint8

const (
	readFunc readerKind = iota
	readString
	readStringMatching
	readStringOneOf
	readBool
	readInt
	readUint
	readFloat
	readStrings
)

// String reads a string of from minLen to maxLen characters into p, as
// SetString does.
//
//go:noinline
func String(p *string, minLen, maxLen int) Reader {
	return Reader{kind: readString, p: p, lo: uint64(int64(minLen)), hi: uint64(int64(maxLen))}
}

// StringMatching reads a string into p as SetStringMatching does, with the
// field's pattern in the Fields (see Fields.Match).
//
//go:noinline
func StringMatching(p *string, minLen, maxLen int) Reader {
	return Reader{kind: readStringMatching, p: p, lo: uint64(int64(minLen)), hi: uint64(int64(maxLen))}
}

// StringOneOf reads a string that is one of the field's values in the
// Fields (see Fields.OneOf) into p, as SetStringOneOf does.
//
//go:noinline
func StringOneOf(p *string) Reader {
	return Reader{kind: readStringOneOf, p: p}
}

// Bool reads true or false into p.
//
//go:noinline
func Bool(p *bool) Reader { return Reader{kind: readBool, p: p} }

// Int reads an integer from lo to hi into p, as SetInt does; its width is
// p's.
//
//go:noinline
func Int[T Signed](p *T, lo, hi int64) Reader {
	return Reader{kind: readInt, p: sizedInt(p), lo: uint64(lo), hi: uint64(hi)}
}

// Uint reads a non-negative integer from lo to hi into p, as SetUint
// does; its width is p's.
//
//go:noinline
func Uint[T Unsigned](p *T, lo, hi uint64) Reader {
	return Reader{kind: readUint, p: sizedUint(p), lo: lo, hi: hi}
}

// Float reads a number from lo to hi into p, as SetFloat does.
//
//go:noinline
func Float[T Floating](p *T, lo, hi float64) Reader {
	return Reader{kind: readFloat, p: sizedFloat(p), lo: math.Float64bits(lo), hi: math.Float64bits(hi)}
}

// sizedInt, sizedUint and sizedFloat return p, a pointer to a number of
// any type of Signed, Unsigned or Floating, as a pointer to the basic type
// of its kind and width (*int32 for a 32-bit signed integer, *float64 for
// a float64), which has its layout: so a Reader reads a named type, and
// int, uint and uintptr, through the few pointer types that read switches
// on.
func sizedInt[T Signed](p *T) any {
	u := unsafe.Pointer(p)
	switch unsafe.Sizeof(*p) {
	case 1:
		return (*int8)(u)
	case 2:
		return (*int16)(u)
	case 4:
		return (*int32)(u)
	}
	return (*int64)(u)
}

func sizedUint[T Unsigned](p *T) any {
	u := unsafe.Pointer(p)
	switch unsafe.Sizeof(*p) {
	case 1:
		return (*uint8)(u)
	case 2:
		return (*uint16)(u)
	case 4:
		return (*uint32)(u)
	}
	return (*uint64)(u)
}

func sizedFloat[T Floating](p *T) any {
	if unsafe.Sizeof(*p) == 4 {
		return (*float32)(unsafe.Pointer(p))
	}
	return (*float64)(unsafe.Pointer(p))
}

// Strings reads a list of from minItems to maxItems strings (-1: no bound)
// into p: a new slice, empty for an empty list.
//
//go:noinline
func Strings(p *[]string, minItems, maxItems int) Reader {
	return Reader{kind: readStrings, p: p, lo: uint64(int64(minItems)), hi: uint64(int64(maxItems))}
}

// ReadFunc is the Reader that calls read, for values of other kinds:
// lists, objects, pointers and enums of numbers.
//
//go:noinline
func ReadFunc(read func() error) Reader { return Reader{kind: readFunc, fn: read} }

// read reads the value of field k of fs with d.
func (r *Reader) read(d *Decoder, fs *Fields, k int) error {
	switch r.kind {
	case readString:
		return SetString(d, r.p.(*string), int(int64(r.lo)), int(int64(r.hi)))
	case readStringMatching:
		if k < len(fs.Match) && fs.Match[k] != nil {
			return SetStringMatching(d, r.p.(*string), fs.Match[k], int(int64(r.lo)), int(int64(r.hi)))
		}
	case readStringOneOf:
		if k < len(fs.OneOf) {
			return SetStringOneOf(d, r.p.(*string), fs.OneOf[k]...)
		}
	case readBool:
		return SetBool(d, r.p.(*bool))
	case readInt:
		lo, hi := int64(r.lo), int64(r.hi)
		switch p := r.p.(type) {
		case *int8:
			return SetInt(d, p, 8, lo, hi)
		case *int16:
			return SetInt(d, p, 16, lo, hi)
		case *int32:
			return SetInt(d, p, 32, lo, hi)
		case *int64:
			return SetInt(d, p, 64, lo, hi)
		}
	case readUint:
		switch p := r.p.(type) {
		case *uint8:
			return SetUint(d, p, 8, r.lo, r.hi)
		case *uint16:
			return SetUint(d, p, 16, r.lo, r.hi)
		case *uint32:
			return SetUint(d, p, 32, r.lo, r.hi)
		case *uint64:
			return SetUint(d, p, 64, r.lo, r.hi)
		}
	case readFloat:
		lo, hi := math.Float64frombits(r.lo), math.Float64frombits(r.hi)
		switch p := r.p.(type) {
		case *float32:
			return SetFloat(d, p, 32, lo, hi)
		case *float64:
			return SetFloat(d, p, 64, lo, hi)
		}
	case readStrings:
		return setStrings(d, r.p.(*[]string), int(int64(r.lo)), int(int64(r.hi)))
	case readFunc:
		if r.fn != nil {
			return r.fn()
		}
	}
	// Unreachable with generated Fields: a zero Reader, or a pattern or
	// values missing from the Fields.
	return Errorf("jsonarg: this field has no reader")
}

// setStrings reads a list of strings into p, as the Strings Reader does.
func setStrings(d *Decoder, p *[]string, minItems, maxItems int) error {
	list := []string{}
	err := d.Array(minItems, maxItems, func(i int) error {
		x, err := d.String()
		list = append(list, x)
		return err
	})
	*p = list
	return err
}
