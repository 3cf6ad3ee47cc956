// Package jsonarg reads the JSON arguments of a tool call strictly and
// without reflection. Generated registries call it: toolgen emits, for each
// tool, the static Fields of each object in its arguments and a decoder
// that gives Decoder.Args a Reader a field (a pointer into the arguments
// struct and the field's bounds); jsonarg walks the object and checks
// every constraint of the tool's JSON Schema as it goes, with the Set
// functions, one for each kind and constraint.
//
// It is the runtime of generated code: toolgen and this package change
// together, and its API carries no compatibility promise for code written
// by hand (as protobuf-go's protoimpl). Hand-written tools decode their
// arguments as they like; Valid is the one function meant for them too.
//
// A Decoder accepts exactly the JSON grammar of RFC 8259. It differs from
// encoding/json on purpose in a few places, each stricter or friendlier to a
// model:
//
//   - object keys match field names exactly (encoding/json also accepts any
//     case), and a key given twice is an error (encoding/json keeps the last);
//   - an integer field accepts any number with no fractional part, so 1e2
//     and 3.0 are 100 and 3, as JSON Schema's "integer" does (encoding/json
//     rejects them);
//   - null is not a value of any field: an optional field is left out
//     instead (encoding/json ignores null).
//
// Invalid UTF-8 in strings is replaced by U+FFFD, as encoding/json does.
package jsonarg

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/toolreg/toolreg/internal/clip"
)

// Decoder reads one JSON text. The zero value is not usable; see
// NewDecoder.
type Decoder struct {
	data []byte
	pos  int
	// first is true right after '{' or '[', before the first member.
	first bool
	// buf holds an object key that had escapes, between Key calls.
	buf []byte
	// shared is true when data are the bytes of a string, which never
	// change: String may then return parts of it without copying them.
	shared bool
}

// NewDecoder returns a decoder that reads data. The strings it returns
// are copies: data may change once they are read.
func NewDecoder(data []byte) Decoder {
	return Decoder{data: data}
}

// NewStringDecoder returns a decoder that reads s. A string it returns
// that had no escapes in s may be part of s, not a copy, as a substring
// is: it keeps s alive while it is (see maxSharedText). s must not change
// while any string read from it is in use: it must not be made with
// unsafe.String from bytes that are written later.
func NewStringDecoder(s string) Decoder {
	return Decoder{data: unsafe.Slice(unsafe.StringData(s), len(s)), shared: true}
}

func (d *Decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end of the input (a
// NUL byte in the input also reads as 0: check d.pos to tell them apart).
func (d *Decoder) peek() byte {
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// ObjectStart reads the '{' that opens an object.
func (d *Decoder) ObjectStart() error {
	if d.peek() != '{' {
		return d.mismatch("object")
	}
	d.pos++
	d.first = true
	return nil
}

// ArrayStart reads the '[' that opens an array.
func (d *Decoder) ArrayStart() error {
	if d.peek() != '[' {
		return d.mismatch("array")
	}
	d.pos++
	d.first = true
	return nil
}

// NextField reads the next key of the current object and the ':' after it.
// It returns ok false, having read the closing '}', when the object ends.
// The key is valid until the next call and must not be written to: it may
// be part of the input, which is read-only when it is a string's bytes
// (NewStringDecoder).
func (d *Decoder) NextField() (key []byte, ok bool, err error) {
	c := d.peek()
	if c == '}' {
		d.pos++
		d.first = false
		return nil, false, nil
	}
	if !d.first {
		if c != ',' {
			return nil, false, d.syntax("expected ',' or '}' after an object member")
		}
		d.pos++
		c = d.peek()
	}
	d.first = false
	if c != '"' {
		return nil, false, d.syntax("expected a string key")
	}
	key, err = d.readString()
	if err != nil {
		return nil, false, err
	}
	if d.peek() != ':' {
		return nil, false, d.syntax("expected ':' after an object key")
	}
	d.pos++
	return key, true, nil
}

// NextItem prepares to read the next element of the current array. It
// returns false, having read the closing ']', when the array ends.
func (d *Decoder) NextItem() (bool, error) {
	c := d.peek()
	if c == ']' {
		d.pos++
		d.first = false
		return false, nil
	}
	if !d.first {
		if c != ',' {
			return false, d.syntax("expected ',' or ']' after an array element")
		}
		d.pos++
	}
	d.first = false
	return true, nil
}

// End checks that nothing but white space follows the value read.
func (d *Decoder) End() error {
	if d.skipSpace(); d.pos < len(d.data) {
		return d.syntax("unexpected data after the arguments object")
	}
	return nil
}

// String reads a string. From a NewStringDecoder, a string without
// escapes is part of the decoder's text, not a copy.
func (d *Decoder) String() (string, error) {
	if d.peek() != '"' {
		return "", d.mismatch("string")
	}
	start := d.pos + 1
	p, simple, err := d.scanString(start)
	if err != nil {
		return "", err
	}
	if simple {
		d.pos = p + 1
		if d.shared && p > start && (len(d.data) <= maxSharedText || 4*(p-start) >= len(d.data)) {
			// Nothing writes to d.data, which s, given to
			// NewStringDecoder, holds. A short string of a long
			// text is copied: kept by a tool, it would keep all
			// of the text alive.
			return unsafe.String(&d.data[start], p-start), nil
		}
		return string(d.data[start:p]), nil
	}
	// Decode into a buffer of its own, sized for the rest of the string
	// (escapes only shrink it), and hand that over as the string.
	out, err := d.unquote(start, p, make([]byte, 0, d.stringEnd(p)-start))
	if err != nil || len(out) == 0 {
		return "", err
	}
	return unsafe.String(&out[0], len(out)), nil
}

// maxSharedText is the longest text whose strings String shares however
// short they are: a string shared from a longer text is at least a
// quarter of it, so that a string a tool keeps keeps alive at most
// maxSharedText bytes, or 4 times its own.
const maxSharedText = 4 << 10

// StringBytes reads a string like String, without allocating when the
// string has no escapes. The result is valid until the next call of a
// method of d and must not be written to (see NextField): generated code
// matches it against an enum's values and then keeps the matching
// constant, not the bytes.
func (d *Decoder) StringBytes() ([]byte, error) {
	if d.peek() != '"' {
		return nil, d.mismatch("string")
	}
	return d.readString()
}

// Bool reads true or false.
func (d *Decoder) Bool() (bool, error) {
	switch d.peek() {
	case 't':
		if d.literal("true") {
			return true, nil
		}
	case 'f':
		if d.literal("false") {
			return false, nil
		}
	}
	return false, d.mismatch("boolean")
}

func (d *Decoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

// Int reads an integer that fits in a signed integer of the given bits.
func (d *Decoder) Int(bits int) (int64, error) {
	lit, integral, err := d.number("integer")
	if err != nil {
		return 0, err
	}
	lo, hi := int64(math.MinInt64)>>(64-bits), int64(math.MaxInt64)>>(64-bits)
	if integral {
		if n, ok := parseInt(lit); ok && n >= lo && n <= hi {
			return n, nil
		}
		return 0, d.rangeError(lit, strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10))
	}
	var buf [1 + maxIntegerDigits]byte
	canon, ok := appendIntegerLiteral(buf[:0], lit)
	if !ok {
		return 0, d.errorf("expected integer, got number %s", shown(lit))
	}
	if n, ok := parseInt(canon); ok && n >= lo && n <= hi {
		return n, nil
	}
	return 0, d.rangeError(lit, strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10))
}

// Uint reads a non-negative integer that fits in an unsigned integer of the
// given bits.
func (d *Decoder) Uint(bits int) (uint64, error) {
	lit, integral, err := d.number("integer")
	if err != nil {
		return 0, err
	}
	hi := uint64(math.MaxUint64) >> (64 - bits)
	if integral {
		if lit[0] != '-' {
			if n, ok := parseUint(lit); ok && n <= hi {
				return n, nil
			}
		} else if string(lit) == "-0" {
			return 0, nil
		}
		return 0, d.rangeError(lit, "0", strconv.FormatUint(hi, 10))
	}
	var buf [1 + maxIntegerDigits]byte
	canon, ok := appendIntegerLiteral(buf[:0], lit)
	if !ok {
		return 0, d.errorf("expected integer, got number %s", shown(lit))
	}
	if canon[0] == '-' {
		if string(canon) == "-0" {
			return 0, nil
		}
		return 0, d.rangeError(lit, "0", strconv.FormatUint(hi, 10))
	}
	if n, ok := parseUint(canon); ok && n <= hi {
		return n, nil
	}
	return 0, d.rangeError(lit, "0", strconv.FormatUint(hi, 10))
}

// Float reads a number that fits in a float of the given bits (32 or 64).
func (d *Decoder) Float(bits int) (float64, error) {
	_, f, err := d.float(bits)
	return f, err
}

// float reads a number as Float does, and returns it both as read (the
// nearest float64, which bounds are compared with, as JSON Schema
// validators do) and rounded to a float of the given bits (what is
// stored).
func (d *Decoder) float(bits int) (exact, rounded float64, err error) {
	lit, _, err := d.number("number")
	if err != nil {
		return 0, 0, err
	}
	rounded, err = strconv.ParseFloat(string(lit), bits)
	if err != nil {
		return 0, 0, d.floatRange(lit, bits)
	}
	exact = rounded
	if bits != 64 {
		exact, _ = strconv.ParseFloat(string(lit), 64) // in range: it is in the narrower one
		if math.Abs(exact) > math.MaxFloat32 {
			// Rounded down to the largest float32, as the message's
			// bound is compared: as sent.
			return 0, 0, d.floatRange(lit, bits)
		}
	}
	return exact, rounded, nil
}

// floatRange says that lit is past the floats of the given bits, naming
// their range as an integer's is named: "out of range" alone left the
// model to guess which.
func (d *Decoder) floatRange(lit []byte, bits int) error {
	max := formatFloat(math.MaxFloat64)
	if bits == 32 {
		max = formatFloat(math.MaxFloat32)
	}
	return d.errorf("expected number from -%s to %s (a %d-bit float), got %s", max, max, bits, shown(lit))
}

func (d *Decoder) rangeError(lit []byte, lo, hi string) error {
	return d.errorf("expected integer from %s to %s, got %s", lo, hi, shown(lit))
}

// number reads a number literal, checking the JSON grammar, and reports
// whether it has neither fraction nor exponent.
func (d *Decoder) number(want string) (lit []byte, integral bool, err error) {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		return nil, false, d.mismatch(want)
	}
	start := d.pos
	p := d.pos
	data := d.data
	if data[p] == '-' {
		p++
	}
	switch {
	case p < len(data) && data[p] == '0':
		p++
	case p < len(data) && data[p] >= '1' && data[p] <= '9':
		for p < len(data) && data[p] >= '0' && data[p] <= '9' {
			p++
		}
	default:
		d.pos = p
		return nil, false, d.syntax("expected a digit in a number")
	}
	integral = true
	if p < len(data) && data[p] == '.' {
		integral = false
		p++
		if p >= len(data) || data[p] < '0' || data[p] > '9' {
			d.pos = p
			return nil, false, d.syntax("expected a digit after the decimal point")
		}
		for p < len(data) && data[p] >= '0' && data[p] <= '9' {
			p++
		}
	}
	if p < len(data) && (data[p] == 'e' || data[p] == 'E') {
		integral = false
		p++
		if p < len(data) && (data[p] == '+' || data[p] == '-') {
			p++
		}
		if p >= len(data) || data[p] < '0' || data[p] > '9' {
			d.pos = p
			return nil, false, d.syntax("expected a digit in the exponent")
		}
		for p < len(data) && data[p] >= '0' && data[p] <= '9' {
			p++
		}
	}
	d.pos = p
	return data[start:p], integral, nil
}

// integerLiteral returns the plain integer literal of a valid JSON number
// literal with a fraction or an exponent, such as "-100" for "-1.00e2", or
// false if the number has a fractional part. It works on the decimal digits
// exactly, as JSON Schema's "integer" does: 1.0000000000000001 is not an
// integer, though it rounds to one as a float64. A number too large for any
// integer type comes back as a long literal that parseInt refuses.
func integerLiteral(lit []byte) ([]byte, bool) {
	return appendIntegerLiteral(nil, lit)
}

// maxIntegerDigits bounds the literals of appendIntegerLiteral: more
// digits than any integer type holds.
const maxIntegerDigits = 40

// appendIntegerLiteral appends integerLiteral(lit) to dst. Int and Uint
// give it a buffer on their stack, of 1+maxIntegerDigits bytes, so that
// reading 1e2 or 3.0 does not allocate.
func appendIntegerLiteral(dst, lit []byte) ([]byte, bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, 0
	if i := bytes.IndexAny(lit, "eE"); i >= 0 {
		mant = lit[:i]
		e, err := strconv.Atoi(string(lit[i+1:]))
		if err != nil { // an exponent beyond int: huge, or tiny
			if lit[i+1] == '-' {
				e = math.MinInt32
			} else {
				e = math.MaxInt32
			}
		}
		exp = e
	}
	// The digits are those of intPart then frac, read in place.
	intPart, frac, _ := bytes.Cut(mant, []byte("."))
	nd := len(intPart) + len(frac)
	digit := func(k int) byte {
		if k < len(intPart) {
			return intPart[k]
		}
		return frac[k-len(intPart)]
	}
	point := len(intPart) + exp // digits before point are the integer part
	first, last := -1, -1
	for k := range nd {
		if digit(k) != '0' {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return append(dst, '0'), true
	}
	if last >= point {
		return nil, false // a non-zero digit after the point
	}
	if neg {
		dst = append(dst, '-')
	}
	n := min(point-first, maxIntegerDigits)
	for i := first; i < first+n; i++ {
		if i < nd {
			dst = append(dst, digit(i))
		} else {
			dst = append(dst, '0')
		}
	}
	return dst, true
}

// parseInt parses a valid JSON integer literal, reporting overflow.
func parseInt(lit []byte) (int64, bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	u, ok := parseUint(lit)
	if !ok {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// parseUint parses the digits of a valid JSON integer literal.
func parseUint(lit []byte) (uint64, bool) {
	var n uint64
	for _, c := range lit {
		if n > (math.MaxUint64-9)/10 {
			// Slow path near the limit.
			if n > math.MaxUint64/10 {
				return 0, false
			}
			m := n*10 + uint64(c-'0')
			if m < n*10 {
				return 0, false
			}
			n = m
			continue
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// readString reads a string whose opening quote is at d.pos. A string
// without escapes whose UTF-8 is valid, the usual case, is returned as a
// slice of the input; otherwise it is decoded into d.buf, which the result
// then shares.
func (d *Decoder) readString() ([]byte, error) {
	start := d.pos + 1
	p, simple, err := d.scanString(start)
	if err != nil {
		return nil, err
	}
	if simple {
		d.pos = p + 1
		// No room past the string: the input may be a Go string's
		// bytes (NewStringDecoder), and an append must not write there.
		return d.data[start:p:p], nil
	}
	out, err := d.unquote(start, p, d.buf[:0])
	if err != nil {
		return nil, err
	}
	d.buf = out
	return out, nil
}

// The bytes of eight at a time, for scanString.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// specialBytes returns a mask with the high bit set in the lowest byte of
// v (read little-endian) that a string scan must stop at: a quote, a
// backslash, a control character or a non-ASCII byte. Higher bits may be
// set falsely above it (borrows propagate upward), the lowest never.
func specialBytes(v uint64) uint64 {
	q := v ^ (lo8 * '"')
	b := v ^ (lo8 * '\\')
	return ((v-lo8*0x20)&^v | (q-lo8)&^q | (b-lo8)&^b | v) & hi8
}

// scanString scans the string whose contents start at p, eight bytes at a
// time where it can. It returns the position of the closing quote and
// simple true when the contents need no decoding; or, with simple false,
// the position of the first byte that does (a backslash or invalid
// UTF-8); or a syntax error (a control character before either, or no
// closing quote).
func (d *Decoder) scanString(p int) (end int, simple bool, err error) {
	data := d.data
	for p < len(data) {
		if p+8 <= len(data) {
			m := specialBytes(binary.LittleEndian.Uint64(data[p:]))
			if m == 0 {
				p += 8
				continue
			}
			p += bits.TrailingZeros64(m) >> 3
		}
		switch c := data[p]; {
		case c == '"':
			return p, true, nil
		case c == '\\':
			return p, false, nil
		case c < 0x20:
			d.pos = p
			return 0, false, d.syntax("control character in a string")
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[p:])
			if r == utf8.RuneError && size == 1 {
				return p, false, nil
			}
			p += size
		default:
			p++
		}
	}
	d.pos = p
	return 0, false, d.syntax("unterminated string")
}

// stringEnd returns the position of the quote that closes the string
// containing p, or len(d.data); it only sizes a buffer.
func (d *Decoder) stringEnd(p int) int {
	data := d.data
	for {
		i := bytes.IndexByte(data[p:], '"')
		if i < 0 {
			return len(data)
		}
		q := p + i
		n := 0 // backslashes right before the quote
		for q-n-1 >= p && data[q-n-1] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q
		}
		p = q + 1
	}
}

// unquote decodes the string whose contents start at start, appending to
// out; the bytes before p need no decoding.
func (d *Decoder) unquote(start, p int, out []byte) ([]byte, error) {
	data := d.data
	out = append(out, data[start:p]...)
	for p < len(data) {
		c := data[p]
		switch {
		case c == '"':
			d.pos = p + 1
			return out, nil
		case c < 0x20:
			d.pos = p
			return nil, d.syntax("control character in a string")
		case c == '\\':
			p++
			if p >= len(data) {
				d.pos = p
				return nil, d.syntax("unterminated string")
			}
			switch data[p] {
			case '"', '\\', '/':
				out = append(out, data[p])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(data[p+1:])
				if !ok {
					d.pos = p
					return nil, d.syntax(`expected four hex digits after \u`)
				}
				p += 4
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(-1), false
					if len(data) > p+2 && data[p+1] == '\\' && data[p+2] == 'u' {
						r2, ok2 = hex4(data[p+3:])
					}
					if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
						r = dec
						p += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				d.pos = p
				return nil, d.syntax("invalid escape in a string")
			}
			p++
		case c < utf8.RuneSelf:
			// Copy the run of plain bytes up to the next one to look at.
			q := p + 1
			for q < len(data) {
				if c := data[q]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
					break
				}
				q++
			}
			out = append(out, data[p:q]...)
			p = q
		default:
			r, size := utf8.DecodeRune(data[p:])
			out = utf8.AppendRune(out, r) // RuneError for invalid bytes, as encoding/json
			p += size
		}
	}
	d.pos = p
	return nil, d.syntax("unterminated string")
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

// kind names the JSON value that starts at the next byte, for messages.
func (d *Decoder) kind() string {
	switch c := d.peek(); {
	case d.pos >= len(d.data):
		return "end of input"
	case c == '"':
		if s, ok := d.stringShown(); ok {
			return "string " + strconv.Quote(s)
		}
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		if lit, _, err := (&Decoder{data: d.data, pos: d.pos}).number(""); err == nil {
			return "number " + shown(lit)
		}
		return "number"
	default:
		return fmt.Sprintf("invalid character %q", c)
	}
}

// maxShown bounds a value quoted in an error message.
const maxShown = 40

// shown returns b for a message, clipped at maxShown bytes, converting
// no more of it than it shows.
func shown(b []byte) string {
	return clip.String(string(b[:min(len(b), maxShown+utf8.UTFMax)]), maxShown)
}

// stringShown returns the string at d.pos for a message, decoded and
// clipped as shown clips, and ok false if it is not a valid string. It
// decodes only the start that it shows: a message about a string of a
// megabyte of escapes allocated three megabytes to quote 40 bytes.
func (d *Decoder) stringShown() (string, bool) {
	sub := Decoder{data: d.data, pos: d.pos}
	if sub.skipString() != nil {
		return "", false
	}
	raw := d.data[d.pos+1 : sub.pos-1]
	// Each byte shown takes at most six of the text (\u0041); a cut
	// escape or character spoils only what lies past maxShown+UTFMax.
	cut := 0
	for cut < len(raw) && cut < 6*(maxShown+utf8.UTFMax+1) {
		switch {
		case raw[cut] != '\\':
			cut++
		case raw[cut+1] == 'u':
			cut += 6
		default:
			cut += 2
		}
	}
	if cut >= len(raw) {
		cut = len(raw)
	}
	q := make([]byte, 0, cut+2)
	q = append(append(append(q, '"'), raw[:cut]...), '"')
	b, err := (&Decoder{data: q}).readString()
	if err != nil {
		return "", false
	}
	return shown(b), true
}

// skipString reads the string at d.pos as readString does, with the same
// errors at the same offsets, without decoding it.
func (d *Decoder) skipString() error {
	data := d.data
	p := d.pos + 1
	for {
		end, simple, err := d.scanString(p)
		switch {
		case err != nil:
			return err
		case simple:
			d.pos = end + 1
			return nil
		case data[end] != '\\':
			p = end + 1 // invalid UTF-8, read as U+FFFD
			continue
		}
		q := end + 1
		if q >= len(data) {
			d.pos = q
			return d.syntax("unterminated string")
		}
		switch data[q] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			p = q + 1
		case 'u':
			if _, ok := hex4(data[q+1:]); !ok {
				d.pos = q
				return d.syntax(`expected four hex digits after \u`)
			}
			p = q + 5
		default:
			d.pos = q
			return d.syntax("invalid escape in a string")
		}
	}
}

func (d *Decoder) mismatch(want string) error {
	got := d.kind()
	if got == "null" {
		return d.errorf("expected %s, got null (null is not accepted: send a value, or leave an optional field out)", want)
	}
	err := &Error{Msg: fmt.Sprintf("expected %s, got %s", want, got)}
	err.stringed = (want == "object" || want == "array") && strings.HasPrefix(got, "string")
	return err
}

func (d *Decoder) syntax(msg string) error {
	return &Error{Msg: fmt.Sprintf("invalid JSON at offset %d: %s", d.pos, msg), syntax: true}
}

func (d *Decoder) errorf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Offset returns how many bytes of the input d has read: the end of the
// value or token read last.
func (d *Decoder) Offset() int { return d.pos }
