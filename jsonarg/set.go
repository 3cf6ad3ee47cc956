package jsonarg

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The Set functions read one value of a field and store it through p,
// checking the constraints of the field's schema; generated decoders make
// one call per field. On an error, what p points to is unspecified: the
// caller discards the value.
//
// A bound that the schema leaves out is given as the extreme of its kind:
// -1 for a string's lengths, math.MinInt64 and math.MaxInt64 for an
// integer, 0 and math.MaxUint64 for an unsigned one, and negative and
// positive infinity for a number. No value lies past those, so each reads
// as no bound at all.

// Signed is the set of Go types a signed integer field has.
type Signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// Unsigned is the set of Go types an unsigned integer field has.
type Unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Floating is the set of Go types a number field has.
type Floating interface {
	~float32 | ~float64
}

// SetString reads a string of from minLen to maxLen characters (-1: no
// bound); lengths count Unicode code points, as JSON Schema does.
func SetString[T ~string](d *Decoder, p *T, minLen, maxLen int) error {
	x, err := d.String()
	if err != nil {
		return err
	}
	*p = T(x)
	return checkLength(x, minLen, maxLen)
}

// SetStringMatching reads a string as SetString does that also matches re.
func SetStringMatching[T ~string](d *Decoder, p *T, re *Pattern, minLen, maxLen int) error {
	x, err := d.String()
	if err != nil {
		return err
	}
	*p = T(x)
	if err := checkLength(x, minLen, maxLen); err != nil {
		return err
	}
	if !re.MatchString(x) {
		return Errorf("expected a string matching %s, got %q", strconv.Quote(re.Expr), x)
	}
	return nil
}

// checkLength checks that x has from minLen to maxLen characters. A
// string of k bytes has from k/4 to k characters: they are counted only
// when the byte length leaves the answer open.
func checkLength(x string, minLen, maxLen int) error {
	if len(x)/4 >= minLen && (maxLen < 0 || len(x) <= maxLen) {
		return nil
	}
	n := utf8.RuneCountInString(x)
	if minLen > 0 && n < minLen {
		return Errorf("expected a string of at least %s, got %d", plural(minLen, "character"), n)
	}
	if maxLen >= 0 && n > maxLen {
		return Errorf("expected a string of at most %s, got %d", plural(maxLen, "character"), n)
	}
	return nil
}

// SetStringOneOf reads a string that is one of values. It keeps the
// matching element of values, so that it costs no allocation.
func SetStringOneOf[T ~string](d *Decoder, p *T, values ...string) error {
	b, err := d.StringBytes()
	if err != nil {
		return err
	}
	for _, v := range values {
		if string(b) == v {
			*p = T(v)
			return nil
		}
	}
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(v)
	}
	return Errorf("expected one of %s, got %q", strings.Join(quoted, ", "), b)
}

// SetBool reads true or false.
func SetBool[T ~bool](d *Decoder, p *T) error {
	x, err := d.Bool()
	*p = T(x)
	return err
}

// SetBoolOneOf reads a boolean that is one of values.
func SetBoolOneOf[T ~bool](d *Decoder, p *T, values ...bool) error {
	x, err := d.Bool()
	if err != nil {
		return err
	}
	*p = T(x)
	return oneOf(values, strconv.FormatBool, x)
}

// SetInt reads an integer that fits in bits bits and lies from lo to hi.
func SetInt[T Signed](d *Decoder, p *T, bits int, lo, hi int64) error {
	x, err := d.Int(bits)
	if err != nil {
		return err
	}
	*p = T(x)
	if x >= lo && x <= hi {
		return nil
	}
	return rangeError("integer", lo != math.MinInt64, hi != math.MaxInt64,
		strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10), strconv.FormatInt(x, 10))
}

// SetIntOneOf reads an integer that fits in bits bits and is one of values.
func SetIntOneOf[T Signed](d *Decoder, p *T, bits int, values ...int64) error {
	x, err := d.Int(bits)
	if err != nil {
		return err
	}
	*p = T(x)
	return oneOf(values, func(v int64) string { return strconv.FormatInt(v, 10) }, x)
}

// SetUint reads a non-negative integer that fits in bits bits and lies
// from lo to hi.
func SetUint[T Unsigned](d *Decoder, p *T, bits int, lo, hi uint64) error {
	x, err := d.Uint(bits)
	if err != nil {
		return err
	}
	*p = T(x)
	if x >= lo && x <= hi {
		return nil
	}
	return rangeError("integer", lo != 0, hi != math.MaxUint64,
		strconv.FormatUint(lo, 10), strconv.FormatUint(hi, 10), strconv.FormatUint(x, 10))
}

// SetUintOneOf reads a non-negative integer that fits in bits bits and is
// one of values.
func SetUintOneOf[T Unsigned](d *Decoder, p *T, bits int, values ...uint64) error {
	x, err := d.Uint(bits)
	if err != nil {
		return err
	}
	*p = T(x)
	return oneOf(values, func(v uint64) string { return strconv.FormatUint(v, 10) }, x)
}

// SetFloat reads a number that fits in a float of bits bits (32 or 64)
// and lies from lo to hi. The bounds are checked on the number as sent
// (its nearest float64), before it is rounded to the field's width: a
// float32 field with a minimum of 0.5 refuses 0.49999999999999994, which
// rounds to 0.5.
func SetFloat[T Floating](d *Decoder, p *T, bits int, lo, hi float64) error {
	x, rounded, err := d.float(bits)
	if err != nil {
		return err
	}
	*p = T(rounded)
	if x >= lo && x <= hi {
		return nil
	}
	return rangeError("number", !math.IsInf(lo, -1), !math.IsInf(hi, 1),
		formatFloat(lo), formatFloat(hi), formatFloat(x))
}

// SetFloatOneOf reads a number that fits in a float of bits bits and is
// one of values, compared as sent, before it is rounded to the field's
// width.
func SetFloatOneOf[T Floating](d *Decoder, p *T, bits int, values ...float64) error {
	x, rounded, err := d.float(bits)
	if err != nil {
		return err
	}
	*p = T(rounded)
	return oneOf(values, formatFloat, x)
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// rangeError says that got lies outside the bounds lo to hi of a number of
// the kind what; hasLo and hasHi tell which bounds the schema gives.
func rangeError(what string, hasLo, hasHi bool, lo, hi, got string) error {
	switch {
	case hasLo && hasHi:
		return Errorf("expected %s from %s to %s, got %s", what, lo, hi, got)
	case hasLo:
		return Errorf("expected %s of at least %s, got %s", what, lo, got)
	default:
		return Errorf("expected %s of at most %s, got %s", what, hi, got)
	}
}

// oneOf returns nil when got is one of values, and otherwise an error
// that lists them.
func oneOf[V comparable](values []V, format func(V) string, got V) error {
	if slices.Contains(values, got) {
		return nil
	}
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = format(v)
	}
	return Errorf("expected one of %s, got %s", strings.Join(s, ", "), format(got))
}
