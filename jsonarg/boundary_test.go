package jsonarg

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// numberLiterals returns literals around every boundary the number reader
// and the integer conversions have: each digit class edge ('0', '9' and
// the characters beside them), each part of the grammar left out or
// doubled, and the limits of each integer width written plainly, with a
// fraction and with an exponent.
func numberLiterals() []string {
	var lits []string
	for _, sign := range []string{"", "-", "+"} {
		for _, in := range []string{"0", "1", "9", "10", "19", "90", "09", "00", "", "/", ":"} {
			for _, frac := range []string{"", ".", ".0", ".9", ".90", ".09", ".5", ".00", "./", ".:"} {
				for _, exp := range []string{"", "e", "E", "e0", "e1", "e9", "E+1", "e+0", "e-1", "e+", "e-", "e-9", "E2", "e19", "e-19", "e/", "e:", "e+/", "e-:"} {
					lits = append(lits, sign+in+frac+exp)
				}
			}
		}
	}
	for _, bits := range []int{8, 16, 32, 64} {
		lo := new(big.Int).Lsh(big.NewInt(-1), uint(bits-1))
		hi := new(big.Int).Sub(new(big.Int).Neg(lo), big.NewInt(1))
		uhi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
		for _, n := range []*big.Int{lo, hi, uhi} {
			for _, d := range []int64{-1, 0, 1, 4, 5} {
				v := new(big.Int).Add(n, big.NewInt(d)).String()
				lits = append(lits, v, v+".0", v+"e0", v+".00e0", sci(v))
			}
		}
	}
	lits = append(lits,
		"18446744073709551610", "18446744073709551619", "18446744073709551620", "18446744073709551625",
		"184467440737095516150", "1844674407370955160", "1844674407370955169", "99999999999999999999",
		"-18446744073709551616", "-9223372036854775808.0", "-0", "-0.0", "-0e5", "0e-5", "0.000",
		"1.0000000000000001", "100e-2", "1000e-3", "1001e-3", "12.5e1", "12.55e1", "0.1e1", "0.01e2",
		"1e39", "1e40", "1e41", "1E-0", "123456789012345678901234567890e-10",
	)
	return lits
}

// sci writes the integer v as d.ddde(n-1), as 1.27e2 for 127.
func sci(v string) string {
	sign := ""
	if v[0] == '-' {
		sign, v = "-", v[1:]
	}
	if len(v) == 1 {
		return sign + v + "e0"
	}
	return fmt.Sprintf("%s%s.%se%d", sign, v[:1], v[1:], len(v)-1)
}

// exact returns the value of a valid JSON number as a big.Rat.
func exact(lit string) *big.Rat {
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		panic("not a number: " + lit)
	}
	return r
}

// TestNumbersAgainstAnOracle reads each literal with Int, Uint and Float of
// every width and compares with exact arithmetic: a literal is a number
// when encoding/json says so, an integer when its exact value is one, and
// in range when its exact value is between the width's limits.
func TestNumbersAgainstAnOracle(t *testing.T) {
	for _, lit := range numberLiterals() {
		valid := json.Valid([]byte(lit))
		for _, bits := range []int{8, 16, 32, 64} {
			lo := new(big.Int).Lsh(big.NewInt(-1), uint(bits-1))
			hi := new(big.Int).Sub(new(big.Int).Neg(lo), big.NewInt(1))
			uhi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))

			d := NewDecoder([]byte(lit))
			n, err := d.Int(bits)
			if err == nil {
				err = d.End()
			}
			wantOK := valid && exact(lit).IsInt() && exact(lit).Num().Cmp(lo) >= 0 && exact(lit).Num().Cmp(hi) <= 0
			if wantOK != (err == nil) || wantOK && exact(lit).Num().Int64() != n {
				t.Errorf("Int(%d) of %s = %d, %v; want ok %v", bits, lit, n, err, wantOK)
			}

			d = NewDecoder([]byte(lit))
			u, err := d.Uint(bits)
			if err == nil {
				err = d.End()
			}
			wantOK = valid && exact(lit).IsInt() && exact(lit).Num().Sign() >= 0 && exact(lit).Num().Cmp(uhi) <= 0
			if wantOK != (err == nil) || wantOK && exact(lit).Num().Uint64() != u {
				t.Errorf("Uint(%d) of %s = %d, %v; want ok %v", bits, lit, u, err, wantOK)
			}
		}
		for _, bits := range []int{32, 64} {
			d := NewDecoder([]byte(lit))
			f, err := d.Float(bits)
			if err == nil {
				err = d.End()
			}
			want, perr := strconv.ParseFloat(lit, bits)
			wantOK := valid && perr == nil
			if wantOK != (err == nil) || wantOK && f != want {
				t.Errorf("Float(%d) of %s = %v, %v; want %v (ok %v)", bits, lit, f, err, want, wantOK)
			}
		}
	}
}

// TestNumberMessages checks the exact messages at the limits: a number
// with a fraction, one past each end, and what each reader expected.
func TestNumberMessages(t *testing.T) {
	for _, tc := range []struct {
		in   string
		read func(*Decoder) error
		want string
	}{
		{"128", intOf(8), "expected integer from -128 to 127, got 128"},
		{"-129", intOf(8), "expected integer from -128 to 127, got -129"},
		{"1.28e2", intOf(8), "expected integer from -128 to 127, got 1.28e2"},
		{"-1.29e2", intOf(8), "expected integer from -128 to 127, got -1.29e2"},
		{"1.5", intOf(8), "expected integer, got number 1.5"},
		{"32768", intOf(16), "expected integer from -32768 to 32767, got 32768"},
		{"2147483648", intOf(32), "expected integer from -2147483648 to 2147483647, got 2147483648"},
		{"256", uintOf(8), "expected integer from 0 to 255, got 256"},
		{"2.56e2", uintOf(8), "expected integer from 0 to 255, got 2.56e2"},
		{"-1e0", uintOf(8), "expected integer from 0 to 255, got -1e0"},
		{"-1", uintOf(64), "expected integer from 0 to 18446744073709551615, got -1"},
		{"18446744073709551620", uintOf(64), "expected integer from 0 to 18446744073709551615, got 18446744073709551620"},
		{"0.5", uintOf(8), "expected integer, got number 0.5"},
		{"1e999", intOf(64), "expected integer from -9223372036854775808 to 9223372036854775807, got 1e999"},
		{"1e99999999999999999999", uintOf(64), "expected integer from 0 to 18446744073709551615, got 1e99999999999999999999"},
		{"1e-99999999999999999999", intOf(64), "expected integer, got number 1e-99999999999999999999"},
		{"3.5e38", floatOf(32), "expected number from -3.4028234663852886e+38 to 3.4028234663852886e+38 (a 32-bit float), got 3.5e38"},
		// Past the largest float32 as sent, though it rounds to it: the
		// range the message names is the range taken.
		{"3.4028235e38", floatOf(32), "expected number from -3.4028234663852886e+38 to 3.4028234663852886e+38 (a 32-bit float), got 3.4028235e38"},
		{"-3.4028235e38", floatOf(32), "expected number from -3.4028234663852886e+38 to 3.4028234663852886e+38 (a 32-bit float), got -3.4028235e38"},
		{"1.8e308", floatOf(64), "expected number from -1.7976931348623157e+308 to 1.7976931348623157e+308 (a 64-bit float), got 1.8e308"},
		{"1" + strings.Repeat("0", 39) + "1", intOf(64), "expected integer from -9223372036854775808 to 9223372036854775807, got 1" + strings.Repeat("0", 39) + "…"},
		{"1" + strings.Repeat("0", 38) + "1", intOf(64), "expected integer from -9223372036854775808 to 9223372036854775807, got 1" + strings.Repeat("0", 38) + "1"},
		{"x", intOf(64), "expected integer, got invalid character 'x'"},
		{"/", floatOf(64), "expected number, got invalid character '/'"},
		{":", uintOf(8), "expected integer, got invalid character ':'"},
		{"-x", intOf(64), "invalid JSON at offset 1: expected a digit in a number"},
		{"1.x", floatOf(64), "invalid JSON at offset 2: expected a digit after the decimal point"},
		{"1.", floatOf(64), "invalid JSON at offset 2: expected a digit after the decimal point"},
		{"1e", floatOf(64), "invalid JSON at offset 2: expected a digit in the exponent"},
		{"1e+", floatOf(64), "invalid JSON at offset 3: expected a digit in the exponent"},
		{"1ex", floatOf(64), "invalid JSON at offset 2: expected a digit in the exponent"},
	} {
		d := NewDecoder([]byte(tc.in))
		err := tc.read(&d)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
	// The largest float32 and its negative are taken.
	for _, in := range []string{"3.4028234663852886e38", "-3.4028234663852886e38", "3.4028234663852886e+38"} {
		d := NewDecoder([]byte(in))
		if _, err := d.Float(32); err != nil {
			t.Errorf("Float(32) of %s: %v", in, err)
		}
	}
	// Big exponents: zero stays zero, whatever the exponent.
	for _, in := range []string{"0e99999999999999999999", "-0.0e-99999999999999999999", "0.0e40"} {
		d := NewDecoder([]byte(in))
		if n, err := d.Int(64); n != 0 || err != nil {
			t.Errorf("Int(64) of %s = %d, %v; want 0", in, n, err)
		}
		d = NewDecoder([]byte(in))
		if n, err := d.Uint(8); n != 0 || err != nil {
			t.Errorf("Uint(8) of %s = %d, %v; want 0", in, n, err)
		}
	}
}

func intOf(bits int) func(*Decoder) error {
	return func(d *Decoder) error { _, err := d.Int(bits); return err }
}

func uintOf(bits int) func(*Decoder) error {
	return func(d *Decoder) error { _, err := d.Uint(bits); return err }
}

func floatOf(bits int) func(*Decoder) error {
	return func(d *Decoder) error { _, err := d.Float(bits); return err }
}

// TestIntegerLiteralDigits checks integerLiteral's canonical form at its
// cap of maxIntegerDigits digits, below it and past it.
func TestIntegerLiteralDigits(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"1e38", "1" + strings.Repeat("0", 38), true},
		{"1e39", "1" + strings.Repeat("0", 39), true},
		{"1e40", "1" + strings.Repeat("0", 39), true},
		{"-2.5e1", "-25", true},
		{"2.5e0", "", false},
		{"0.0e0", "0", true},
		{"-0.0", "0", true},
		{"1.20e1", "12", true},
		{"120e-1", "12", true},
		{"121e-1", "", false},
		{"1E2", "100", true},
	} {
		got, ok := integerLiteral([]byte(tc.in))
		if string(got) != tc.want || ok != tc.ok {
			t.Errorf("integerLiteral(%s) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestStringBytesAfterEscapes reads every ASCII byte, and a few longer
// characters, after an escape and after invalid UTF-8 (the slow path) as
// well as plainly, and compares with encoding/json.
func TestStringBytesAfterEscapes(t *testing.T) {
	var tails []string
	for b := range 0x80 {
		tails = append(tails, string(rune(b)))
	}
	tails = append(tails, "é", "日", "😀", "\x80", "\xbf", "\xc0", "\xff", "\xe6\x97")
	var pres []string
	for _, pre := range []string{"", `\n`, `\u00e9`, "\xff", `\ud83d\ude00`, "é"} {
		// The byte right after the escape, and after a run of plain ones.
		pres = append(pres, pre, pre+"a", pre+"abc")
	}
	for _, pre := range pres {
		for _, tail := range tails {
			for _, post := range []string{"", "a", "abcdefghi"} {
				in := `"` + pre + tail + post + `"`
				var want string
				wantErr := json.Unmarshal([]byte(in), &want)
				d := NewDecoder([]byte(in))
				got, err := d.String()
				if err == nil {
					err = d.End()
				}
				if (err == nil) != (wantErr == nil) || err == nil && got != want {
					t.Errorf("String(%q) = %q, %v; encoding/json: %q, %v", in, got, err, want, wantErr)
				}
			}
		}
	}
}

// TestHexEscapes puts the characters beside each hex digit range in each
// of the four places of a \u escape, and the surrogates at their edges.
func TestHexEscapes(t *testing.T) {
	var ins []string
	for _, c := range "/09:@AFG`afg" {
		for i := range 4 {
			h := []byte("00e9")
			h[i] = byte(c)
			ins = append(ins, `"\u`+string(h)+`"`)
		}
	}
	ins = append(ins,
		`"\ud83d\ude00"`, `"\ud800\udc00"`, `"\udbff\udfff"`, `"\ud7ff"`, `"\ue000"`, `"\udc00"`,
		`"\ud83d\u0041"`, `"\ud83d\ud83d"`, `"\ud83dx"`, `"\ud83d\n"`, `"\ud83d\u00"`, `"\ud83d"`, `"\uD83D\uDE00"`,
	)
	for _, in := range ins {
		var want string
		wantErr := json.Unmarshal([]byte(in), &want)
		d := NewDecoder([]byte(in))
		got, err := d.String()
		if (err == nil) != (wantErr == nil) || err == nil && got != want {
			t.Errorf("String(%s) = %q, %v; encoding/json: %q, %v", in, got, err, want, wantErr)
		}
	}
	// Cut right after the four hex digits: the string is unterminated,
	// the escape itself is whole.
	for in, want := range map[string]string{
		`"\u00e9`: "invalid JSON at offset 7: unterminated string",
		`"\u00e`:  `invalid JSON at offset 2: expected four hex digits after \u`,
	} {
		d := NewDecoder([]byte(in))
		if _, err := d.String(); err == nil || err.Error() != want {
			t.Errorf("String(%s): %v, want %q", in, err, want)
		}
	}
	// Cut short right after a high surrogate: an error, not a panic.
	for _, in := range []string{`"\ud83d\`, `"\ud83d\u`, `"\ud83d\ud`, `"\ud83d`, `"\u`, `"\u00e`} {
		d := NewDecoder([]byte(in))
		if _, err := d.String(); err == nil {
			t.Errorf("String(%s): no error", in)
		}
	}
}

// TestLiteralsCutShort reads true, false and null cut at every length,
// with nothing after them: an error, never a panic.
func TestLiteralsCutShort(t *testing.T) {
	for _, word := range []string{"true", "false"} {
		for n := range len(word) {
			d := NewDecoder([]byte(word[:n]))
			if v, err := d.Bool(); err == nil {
				t.Errorf("Bool(%q) = %v, want an error", word[:n], v)
			}
		}
		d := NewDecoder([]byte(word))
		if v, err := d.Bool(); err != nil || v != (word == "true") {
			t.Errorf("Bool(%q) = %v, %v", word, v, err)
		}
	}
	for _, in := range []string{"n", "nu", "nul", "t", "tru", "f", "fals", "nulL", "truE"} {
		if Valid([]byte(in)) {
			t.Errorf("Valid(%q) = true", in)
		}
	}
	// After other bytes, in a slice whose capacity ends with it, and with
	// the rest of the word just past that capacity in the same array.
	for _, in := range []string{` tru`, `[tru`, `  fals`, `[1,nul`} {
		b := []byte(in + "eeee")
		d := NewDecoder(b[:len(in):len(in)])
		if _, _, err := d.Skip(); err == nil {
			t.Errorf("Skip(%q) = nil error", in)
		}
		d = NewDecoder(b[:len(in):len(in)])
		d.skipSpace()
		if d.data[d.pos] == '[' {
			d.ArrayStart()
			d.NextItem()
		}
		if _, err := d.Bool(); err == nil {
			t.Errorf("Bool(%q) = nil error", in)
		}
	}
}

// TestMismatchMessages names what came instead of the value expected, with
// a quoted string clipped at maxShown bytes: at the limit, below and past.
func TestMismatchMessages(t *testing.T) {
	at := strings.Repeat("s", maxShown)
	for _, tc := range []struct {
		in, want string
		stringed bool
		read     func(*Decoder) error
	}{
		{`"` + at + `"`, `expected integer, got string "` + at + `"`, false, intOf(64)},
		{`"` + at[1:] + `"`, `expected integer, got string "` + at[1:] + `"`, false, intOf(64)},
		{`"` + at + `s"`, `expected integer, got string "` + at + `…"`, false, intOf(64)},
		{`"{}"`, `expected object, got string "{}"`, true, func(d *Decoder) error { return d.ObjectStart() }},
		{`"[]"`, `expected array, got string "[]"`, true, func(d *Decoder) error { return d.ArrayStart() }},
		{`"x`, `expected object, got string`, true, func(d *Decoder) error { return d.ObjectStart() }},
		{`{}`, `expected array, got object`, false, func(d *Decoder) error { return d.ArrayStart() }},
		{`[]`, `expected string, got array`, false, func(d *Decoder) error { _, err := d.String(); return err }},
		{`true`, `expected number, got boolean`, false, floatOf(64)},
		{`false`, `expected string, got boolean`, false, func(d *Decoder) error { _, err := d.StringBytes(); return err }},
		{` `, `expected boolean, got end of input`, false, func(d *Decoder) error { _, err := d.Bool(); return err }},
		{`-`, `expected boolean, got number`, false, func(d *Decoder) error { _, err := d.Bool(); return err }},
		{`-5`, `expected boolean, got number -5`, false, func(d *Decoder) error { _, err := d.Bool(); return err }},
		{`9`, `expected string, got number 9`, false, func(d *Decoder) error { _, err := d.String(); return err }},
		{`0`, `expected string, got number 0`, false, func(d *Decoder) error { _, err := d.String(); return err }},
		{`null`, `expected string, got null (null is not accepted: send a value, or leave an optional field out)`, false, func(d *Decoder) error { _, err := d.String(); return err }},
		{"\x00", `expected string, got invalid character '\x00'`, false, func(d *Decoder) error { _, err := d.String(); return err }},
	} {
		d := NewDecoder([]byte(tc.in))
		err := tc.read(&d)
		var e *Error
		if !errors.As(err, &e) || e.Error() != tc.want || e.SentAsString() != tc.stringed {
			t.Errorf("%q: error %v (stringed %v), want %q (stringed %v)", tc.in, err, e != nil && e.SentAsString(), tc.want, tc.stringed)
		}
	}
}

// TestErrorPaths builds paths with At, Missing, Duplicate and Unknown.
func TestErrorPaths(t *testing.T) {
	base := Errorf("bad %d", 1)
	stringed := &Error{Msg: "s", stringed: true}
	long := strings.Repeat("k", maxShown)
	for _, tc := range []struct {
		err      error
		want     string
		stringed bool
	}{
		{base, "bad 1", false},
		{At(base), "bad 1", false},
		{At(base, "a"), `field "a": bad 1`, false},
		{At(base, "a", 2, "b"), `field "a[2].b": bad 1`, false},
		{At(At(base, "b"), "a"), `field "a.b": bad 1`, false},
		{At(At(base, 0), "a"), `field "a[0]": bad 1`, false},
		{At(At(base, "c"), "a", 1), `field "a[1].c": bad 1`, false},
		{At(At(base, "c")), `field "c": bad 1`, false},
		{At(stringed, "x"), `field "x": s`, true},
		{At(&Error{Msg: "syntax", syntax: true}, "x"), "syntax", false},
		{Missing("q"), `field "q": required, but missing`, false},
		{Duplicate("q"), `field "q": given more than once`, false},
		{Unknown([]byte("z"), ""), `field "z": unknown field; this object takes no fields`, false},
		{Unknown([]byte("z"), `"a", "b"`), `field "z": unknown field; expected one of "a", "b"`, false},
		{Unknown([]byte(long), `"a"`), `field "` + long + `": unknown field; expected one of "a"`, false},
		{Unknown([]byte(long+"k"), `"a"`), `field "` + long + `…": unknown field; expected one of "a"`, false},
	} {
		var e *Error
		if !errors.As(tc.err, &e) || e.Error() != tc.want || e.SentAsString() != tc.stringed {
			t.Errorf("error %v, want %q (stringed %v)", tc.err, tc.want, tc.stringed)
		}
	}
	plain := errors.New("plain")
	if got := At(plain, "a"); got != plain {
		t.Errorf("At of a foreign error = %v, want it unchanged", got)
	}
}

// TestPattern matches and refuses, and an expression that does not
// compile matches nothing.
func TestPattern(t *testing.T) {
	p := &Pattern{Expr: "^[a-z]+$"}
	bad := &Pattern{Expr: "("}
	got := []bool{p.MatchString("abc"), p.MatchString("ab1"), p.MatchString(""), bad.MatchString("("), bad.MatchString("")}
	if diff := cmp.Diff([]bool{true, false, false, false, false}, got); diff != "" {
		t.Errorf("matches (-want +got):\n%s", diff)
	}
}

// TestSkipSpans checks the offsets Skip returns around each kind of value
// and the white space before and after it.
func TestSkipSpans(t *testing.T) {
	for _, in := range []string{`1`, ` -0.5e3 `, `"a\"b"`, ` true`, `false `, `null`, `{}`, `[]`, ` {"a":[1,{"b":null}],"c":"d"} `, `[[[]],[{}]]`} {
		d := NewDecoder([]byte(in))
		start, end, err := d.Skip()
		trimmed := strings.TrimSpace(in)
		want := strings.Index(in, trimmed)
		if err != nil || start != want || end != want+len(trimmed) {
			t.Errorf("Skip(%q) = %d, %d, %v; want %d, %d", in, start, end, err, want, want+len(trimmed))
		}
		if !Valid([]byte(in)) {
			t.Errorf("Valid(%q) = false", in)
		}
	}
	for _, in := range []string{`{"a"}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{1:2}`, `nul`, `"x`, `-`, `{"a":1}}`, `1 2`, ``, ` `} {
		if Valid([]byte(in)) {
			t.Errorf("Valid(%q) = true", in)
		}
	}
	// A value that is not a float64 yet still a number.
	if !Valid([]byte("1e999")) || !Valid([]byte(strconv.FormatFloat(math.MaxFloat64, 'g', -1, 64))) {
		t.Error("Valid refuses a large number")
	}
}
