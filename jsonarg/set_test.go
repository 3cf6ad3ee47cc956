package jsonarg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// outcome is what one Set call made of an input: the value stored, or the
// error's text.
type outcome struct {
	Value string
	Err   string
}

func outcomeOf[T any](v T, err error) outcome {
	if err != nil {
		return outcome{Err: err.Error()}
	}
	return outcome{Value: fmt.Sprint(v)}
}

// setCase is one input of a Set function and what it must give.
type setCase struct {
	in   string
	want outcome
}

func ok(v string) outcome    { return outcome{Value: v} }
func fails(e string) outcome { return outcome{Err: e} }

// runSet runs set on each case's input, with a Decoder of its own, and
// checks the outcome; set reads one value and returns what it stored.
func runSet[T any](t *testing.T, cases []setCase, set func(d *Decoder, p *T) error) {
	t.Helper()
	for _, c := range cases {
		d := NewDecoder([]byte(c.in))
		var v T
		err := set(&d, &v)
		got := outcomeOf(v, err)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.in, diff)
		}
	}
}

// A named string type, as an args struct may use for an enum.
type unit string

// TestSetString checks lengths at, below and past each bound, counted in
// characters of one, two, three and four bytes, and the byte-length
// shortcut on both sides of 4×minLen.
func TestSetString(t *testing.T) {
	for _, ch := range []string{"a", "é", "€", "😀"} {
		s := func(n int) string { return `"` + strings.Repeat(ch, n) + `"` }
		v := func(n int) outcome { return ok(strings.Repeat(ch, n)) }
		runSet(t, []setCase{
			{s(1), fails("expected a string of at least 2 characters, got 1")},
			{s(2), v(2)},
			{s(3), v(3)},
			{s(4), v(4)},
			{s(5), fails("expected a string of at most 4 characters, got 5")},
			{`""`, fails("expected a string of at least 2 characters, got 0")},
		}, func(d *Decoder, p *string) error { return SetString(d, p, 2, 4) })
		runSet(t, []setCase{
			{s(0), fails("expected a string of at least 1 character, got 0")},
			{s(1), v(1)},
		}, func(d *Decoder, p *string) error { return SetString(d, p, 1, -1) })
		runSet(t, []setCase{
			{s(0), v(0)},
			{s(1), v(1)},
			{s(2), fails("expected a string of at most 1 character, got 2")},
		}, func(d *Decoder, p *string) error { return SetString(d, p, -1, 1) })
		runSet(t, []setCase{
			{s(0), v(0)},
			{s(1), fails("expected a string of at most 0 characters, got 1")},
		}, func(d *Decoder, p *string) error { return SetString(d, p, 0, 0) })
		// minLen 3: a string of fewer than 12 bytes may have fewer than 3
		// characters, so 11 and 12 bytes straddle the shortcut.
		runSet(t, []setCase{
			{s(2), fails("expected a string of at least 3 characters, got 2")},
			{s(3), v(3)},
			{s(12 / len(ch)), v(12 / len(ch))},
		}, func(d *Decoder, p *string) error { return SetString(d, p, 3, -1) })
	}
	runSet(t, []setCase{
		{`"celsius"`, ok("celsius")},
		{`5`, fails("expected string, got number 5")},
	}, func(d *Decoder, p *unit) error { return SetString(d, p, -1, -1) })
}

func TestSetStringMatching(t *testing.T) {
	re := &Pattern{Expr: `^[0-9]{4}-[0-9]{2}$`}
	runSet(t, []setCase{
		{`"2026-12"`, ok("2026-12")},
		{`"2026-1"`, fails(`expected a string matching "^[0-9]{4}-[0-9]{2}$", got "2026-1"`)},
		{`"2026-123"`, fails(`expected a string matching "^[0-9]{4}-[0-9]{2}$", got "2026-123"`)},
		{`1`, fails("expected string, got number 1")},
	}, func(d *Decoder, p *string) error { return SetStringMatching(d, p, re, -1, -1) })
	// The lengths are checked before the pattern.
	runSet(t, []setCase{
		{`"2026-1"`, fails(`expected a string of at least 7 characters, got 6`)},
		{`"2026-12"`, ok("2026-12")},
		{`"2026-12x"`, fails(`expected a string of at most 7 characters, got 8`)},
	}, func(d *Decoder, p *string) error { return SetStringMatching(d, p, re, 7, 7) })
	bad := &Pattern{Expr: `(`}
	runSet(t, []setCase{
		{`"("`, fails(`expected a string matching "(", got "("`)},
	}, func(d *Decoder, p *string) error { return SetStringMatching(d, p, bad, -1, -1) })
}

func TestSetStringOneOf(t *testing.T) {
	runSet(t, []setCase{
		{`"celsius"`, ok("celsius")},
		{`"fahrenheit"`, ok("fahrenheit")},
		{`"Celsius"`, fails(`expected one of "celsius", "fahrenheit", got "Celsius"`)},
		{`"celsiu"`, fails(`expected one of "celsius", "fahrenheit", got "celsiu"`)},
		{`"celsius "`, fails(`expected one of "celsius", "fahrenheit", got "celsius "`)},
		{`"\u0063elsius"`, ok("celsius")},
		{`""`, fails(`expected one of "celsius", "fahrenheit", got ""`)},
		{`true`, fails("expected string, got boolean")},
	}, func(d *Decoder, p *unit) error { return SetStringOneOf(d, p, "celsius", "fahrenheit") })
	runSet(t, []setCase{
		{`"x"`, fails(`expected one of , got "x"`)},
	}, func(d *Decoder, p *string) error { return SetStringOneOf(d, p) })
}

// TestSetStringOneOfAllocations checks that an enum value is kept from
// the values, not copied from the input.
func TestSetStringOneOfAllocations(t *testing.T) {
	data := []byte(`"fahrenheit"`)
	var v string
	n := testing.AllocsPerRun(100, func() {
		d := NewDecoder(data)
		if err := SetStringOneOf(&d, &v, "celsius", "fahrenheit"); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("SetStringOneOf: %v allocations, want 0", n)
	}
}

func TestSetBool(t *testing.T) {
	runSet(t, []setCase{
		{`true`, ok("true")},
		{`false`, ok("false")},
		{`"true"`, fails(`expected boolean, got string "true"`)},
	}, func(d *Decoder, p *bool) error { return SetBool(d, p) })
	runSet(t, []setCase{
		{`true`, ok("true")},
		{`false`, fails("expected one of true, got false")},
		{`1`, fails("expected boolean, got number 1")},
	}, func(d *Decoder, p *bool) error { return SetBoolOneOf(d, p, true) })
}

// TestSetInt checks each bound at, below and past it, bounds left out
// (the extremes), and the width of the field.
func TestSetInt(t *testing.T) {
	runSet(t, []setCase{
		{`0`, fails("expected integer from 1 to 16, got 0")},
		{`1`, ok("1")},
		{`2`, ok("2")},
		{`15`, ok("15")},
		{`16`, ok("16")},
		{`17`, fails("expected integer from 1 to 16, got 17")},
		{`1.0`, ok("1")},
		{`1.5`, fails("expected integer, got number 1.5")},
		{`-1`, fails("expected integer from 1 to 16, got -1")},
	}, func(d *Decoder, p *int) error { return SetInt(d, p, 64, 1, 16) })
	runSet(t, []setCase{
		{`-6`, fails("expected integer of at least -5, got -6")},
		{`-5`, ok("-5")},
		{`9223372036854775807`, ok("9223372036854775807")},
	}, func(d *Decoder, p *int64) error { return SetInt(d, p, 64, -5, math.MaxInt64) })
	runSet(t, []setCase{
		{`-9223372036854775808`, ok("-9223372036854775808")},
		{`7`, ok("7")},
		{`8`, fails("expected integer of at most 7, got 8")},
	}, func(d *Decoder, p *int64) error { return SetInt(d, p, 64, math.MinInt64, 7) })
	runSet(t, []setCase{
		{`-129`, fails("expected integer from -128 to 127, got -129")},
		{`-128`, ok("-128")},
		{`127`, ok("127")},
		{`128`, fails("expected integer from -128 to 127, got 128")},
	}, func(d *Decoder, p *int8) error { return SetInt(d, p, 8, math.MinInt64, math.MaxInt64) })
	runSet(t, []setCase{
		{`3`, ok("3")},
		{`2`, fails("expected one of 1, 3, got 2")},
		{`4`, fails("expected one of 1, 3, got 4")},
		{`1`, ok("1")},
		{`"1"`, fails(`expected integer, got string "1"`)},
	}, func(d *Decoder, p *int32) error { return SetIntOneOf(d, p, 32, 1, 3) })
}

func TestSetUint(t *testing.T) {
	runSet(t, []setCase{
		{`1`, fails("expected integer from 2 to 366, got 1")},
		{`2`, ok("2")},
		{`366`, ok("366")},
		{`367`, fails("expected integer from 2 to 366, got 367")},
		{`-1`, fails("expected integer from 0 to 65535, got -1")},
	}, func(d *Decoder, p *uint16) error { return SetUint(d, p, 16, 2, 366) })
	runSet(t, []setCase{
		{`0`, ok("0")},
		{`366`, ok("366")},
		{`367`, fails("expected integer of at most 366, got 367")},
	}, func(d *Decoder, p *uint) error { return SetUint(d, p, 64, 0, 366) })
	runSet(t, []setCase{
		{`4`, fails("expected integer of at least 5, got 4")},
		{`5`, ok("5")},
		{`18446744073709551615`, ok("18446744073709551615")},
	}, func(d *Decoder, p *uint64) error { return SetUint(d, p, 64, 5, math.MaxUint64) })
	runSet(t, []setCase{
		{`7`, ok("7")},
		{`8`, fails("expected one of 7, got 8")},
		{`6`, fails("expected one of 7, got 6")},
	}, func(d *Decoder, p *uint8) error { return SetUintOneOf(d, p, 8, 7) })
}

func TestSetFloat(t *testing.T) {
	next := func(f, to float64) string { return strconv.FormatFloat(math.Nextafter(f, to), 'g', -1, 64) }
	runSet(t, []setCase{
		{next(0.5, 0), fails("expected number from 0.5 to 2, got " + next(0.5, 0))},
		{`0.5`, ok("0.5")},
		{`2`, ok("2")},
		{next(2, 3), fails("expected number from 0.5 to 2, got " + next(2, 3))},
		{`1e400`, fails("expected number from -1.7976931348623157e+308 to 1.7976931348623157e+308 (a 64-bit float), got 1e400")},
	}, func(d *Decoder, p *float64) error { return SetFloat(d, p, 64, 0.5, 2) })
	runSet(t, []setCase{
		{`-1e308`, ok("-1e+308")},
		{`1`, ok("1")},
		{`1.0000001`, fails("expected number of at most 1, got 1.0000001")},
	}, func(d *Decoder, p *float64) error { return SetFloat(d, p, 64, math.Inf(-1), 1) })
	runSet(t, []setCase{
		{`-0.1`, fails("expected number of at least 0, got -0.1")},
		{`0`, ok("0")},
		{`1e38`, ok("1e+38")},
		{`1e39`, fails("expected number from -3.4028234663852886e+38 to 3.4028234663852886e+38 (a 32-bit float), got 1e39")},
	}, func(d *Decoder, p *float32) error { return SetFloat(d, p, 32, 0, math.Inf(1)) })
	// A float32 field: the bounds and values are compared with the number
	// as sent, not as rounded to 32 bits.
	runSet(t, []setCase{
		{`0.49999999999999994`, fails("expected number of at least 0.5, got 0.49999999999999994")},
		{`0.5`, ok("0.5")},
		{`0.50000001`, ok("0.5")},
	}, func(d *Decoder, p *float32) error { return SetFloat(d, p, 32, 0.5, math.Inf(1)) })
	runSet(t, []setCase{
		{`0.1`, ok("0.1")},
		{`0.10000000149011612`, fails("expected one of 0.1, got 0.10000000149011612")},
	}, func(d *Decoder, p *float32) error { return SetFloatOneOf(d, p, 32, 0.1) })
	runSet(t, []setCase{
		{`1.5`, ok("1.5")},
		{`1.25`, fails("expected one of 1.5, 1e+06, got 1.25")},
		{`1e6`, ok("1e+06")},
	}, func(d *Decoder, p *float64) error { return SetFloatOneOf(d, p, 64, 1.5, 1e6) })
}
