package jsonarg

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// sample is decoded by hand with a Decoder, as generated code does.
type sample struct {
	S string   `json:"s"`
	N int64    `json:"n"`
	U uint8    `json:"u"`
	F float64  `json:"f"`
	B bool     `json:"b"`
	L []string `json:"l"`
}

func decodeSample(data []byte) (sample, error) {
	var v sample
	d := NewDecoder(data)
	if err := d.ObjectStart(); err != nil {
		return v, err
	}
	var seen [6]bool
	for {
		key, more, err := d.NextField()
		if err != nil {
			return v, err
		}
		if !more {
			break
		}
		i := map[string]int{"s": 0, "n": 1, "u": 2, "f": 3, "b": 4, "l": 5}
		k, ok := i[string(key)]
		if !ok {
			return v, Unknown(key, `"s", "n", "u", "f", "b", "l"`)
		}
		if seen[k] {
			return v, Duplicate(string(key))
		}
		seen[k] = true
		switch k {
		case 0:
			v.S, err = d.String()
		case 1:
			v.N, err = d.Int(64)
		case 2:
			var u uint64
			u, err = d.Uint(8)
			v.U = uint8(u)
		case 3:
			v.F, err = d.Float(64)
		case 4:
			v.B, err = d.Bool()
		case 5:
			if err = d.ArrayStart(); err != nil {
				break
			}
			v.L = []string{}
			for j := 0; ; j++ {
				more, err := d.NextItem()
				if err != nil {
					return v, At(err, "l")
				}
				if !more {
					break
				}
				s, err := d.String()
				if err != nil {
					return v, At(err, "l", j)
				}
				v.L = append(v.L, s)
			}
		}
		if err != nil {
			return v, At(err, string(key))
		}
	}
	return v, d.End()
}

func TestDecode(t *testing.T) {
	tests := []struct {
		in      string
		want    sample
		wantErr string
	}{
		{in: `{}`},
		{in: " \t\r\n{ } \n"},
		{in: `{"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00"}`, want: sample{S: "a\"b\\c/d\né😀"}},
		{in: `{"s":"\ud800"}`, want: sample{S: "\uFFFD"}},
		{in: "{\"s\":\"a\xffb\"}", want: sample{S: "a\uFFFDb"}},
		{in: `{"n":-9223372036854775808}`, want: sample{N: math.MinInt64}},
		{in: `{"n":9223372036854775807}`, want: sample{N: math.MaxInt64}},
		{in: `{"n":9223372036854775808}`, wantErr: `field "n": expected integer from -9223372036854775808 to 9223372036854775807, got 9223372036854775808`},
		{in: `{"n":1e2}`, want: sample{N: 100}},
		{in: `{"n":3.0}`, want: sample{N: 3}},
		{in: `{"n":3.5}`, wantErr: `field "n": expected integer, got number 3.5`},
		{in: `{"n":1e999}`, wantErr: `field "n": expected integer from -9223372036854775808 to 9223372036854775807, got 1e999`},
		{in: `{"n":1.0000000000000001}`, wantErr: `field "n": expected integer, got number 1.0000000000000001`},
		{in: `{"u":2.55e2}`, want: sample{U: 255}},
		{in: `{"u":255}`, want: sample{U: 255}},
		{in: `{"u":256}`, wantErr: `field "u": expected integer from 0 to 255, got 256`},
		{in: `{"u":-1}`, wantErr: `field "u": expected integer from 0 to 255, got -1`},
		{in: `{"u":-0}`},
		{in: `{"f":-1.5e-3}`, want: sample{F: -1.5e-3}},
		{in: `{"f":1e999}`, wantErr: `field "f": expected number from -1.7976931348623157e+308 to 1.7976931348623157e+308 (a 64-bit float), got 1e999`},
		{in: `{"f":01}`, wantErr: `invalid JSON at offset 6: expected ',' or '}' after an object member`},
		{in: `{"f":1.}`, wantErr: `invalid JSON at offset 7: expected a digit after the decimal point`},
		{in: `{"f":-}`, wantErr: `invalid JSON at offset 6: expected a digit in a number`},
		{in: `{"b":true,"l":["x","y"]}`, want: sample{B: true, L: []string{"x", "y"}}},
		{in: `{"l":[]}`, want: sample{L: []string{}}},
		{in: `{"l":["x",]}`, wantErr: `field "l[1]": expected string, got invalid character ']'`},
		{in: `{"l":["x" "y"]}`, wantErr: `invalid JSON at offset 10: expected ',' or ']' after an array element`},
		{in: `{"l":[1]}`, wantErr: `field "l[0]": expected string, got number 1`},
		{in: `{"s":"a",}`, wantErr: `invalid JSON at offset 9: expected a string key`},
		{in: `{"s" "a"}`, wantErr: `invalid JSON at offset 5: expected ':' after an object key`},
		{in: `{"s":"a"`, wantErr: `invalid JSON at offset 8: expected ',' or '}' after an object member`},
		{in: `{"s":"a"}}`, wantErr: `invalid JSON at offset 9: unexpected data after the arguments object`},
		{in: `{"S":"a"}`, wantErr: `field "S": unknown field; expected one of "s", "n", "u", "f", "b", "l"`},
		{in: `{"s":"a","s":"b"}`, wantErr: `field "s": given more than once`},
		{in: `{"b":null}`, wantErr: `field "b": expected boolean, got null (null is not accepted: send a value, or leave an optional field out)`},
		{in: `{"b":tru}`, wantErr: `field "b": expected boolean, got boolean`},
		{in: "{\"s\":\"a\tb\"}", wantErr: `invalid JSON at offset 7: control character in a string`},
		{in: `{"s":"\x"}`, wantErr: `invalid JSON at offset 7: invalid escape in a string`},
		{in: `{"s":"\u12"}`, wantErr: `invalid JSON at offset 7: expected four hex digits after \u`},
		{in: ``, wantErr: `expected object, got end of input`},
		{in: `[]`, wantErr: `expected object, got array`},
		{in: `"{}"`, wantErr: `expected object, got string "{}"`},
	}
	for _, tt := range tests {
		got, err := decodeSample([]byte(tt.in))
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s: error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestDecodeDoesNotAllocateForNumbersAndBools(t *testing.T) {
	data := []byte(`{"n":12345,"u":7,"b":true}`)
	allocs := testing.AllocsPerRun(100, func() {
		d := NewDecoder(data)
		if err := d.ObjectStart(); err != nil {
			panic(err)
		}
		for {
			key, more, err := d.NextField()
			if err != nil {
				panic(err)
			}
			if !more {
				break
			}
			switch string(key) {
			case "n":
				_, err = d.Int(64)
			case "u":
				_, err = d.Uint(8)
			case "b":
				_, err = d.Bool()
			}
			if err != nil {
				panic(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per decode, want 0", allocs)
	}
}

// FuzzDecode checks that the decoder never panics, and that whatever it
// accepts encoding/json accepts too and reads as the same value. The
// differences written down in the package doc are allowed the other way.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"s":"x","n":1,"u":2,"f":1.5,"b":false,"l":["a"]}`, `{"n":1e2}`, `{"s":"\ud83d\ude00"}`,
		"{\"s\":\"\xff\"}", `{"l":[[[[]]]]}`, `{"n":1e999}`, `{"s":"a","s":"b"}`, `{"n":null}`, `{} x`,
		`{"n":100000000000000001.0}`, `{"n":9.223372036854775807e18}`, `{"n":0e99999999999999999999}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeSample(data)
		if err != nil {
			if !utf8.ValidString(err.Error()) && utf8.Valid(data) {
				t.Errorf("error message is not UTF-8: %q", err)
			}
			return
		}
		var ref map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&ref); err != nil {
			t.Fatalf("decoder accepted %q, encoding/json did not: %v", data, err)
		}
		if dec.More() {
			t.Fatalf("decoder accepted trailing data in %q", data)
		}
		var want sample
		for k, v := range ref {
			switch k {
			case "s":
				want.S = v.(string)
			case "n":
				// The decoder reads an integer written with a fraction
				// or an exponent exactly (integerLiteral), where
				// float64 rounds 100000000000000001.0.
				if r, ok := new(big.Rat).SetString(v.(json.Number).String()); ok && r.IsInt() && r.Num().IsInt64() {
					want.N = r.Num().Int64()
				} else {
					f, _ := v.(json.Number).Float64()
					want.N = int64(f)
				}
			case "u":
				f, _ := v.(json.Number).Float64()
				want.U = uint8(f)
			case "f":
				want.F, _ = v.(json.Number).Float64()
			case "b":
				want.B = v.(bool)
			case "l":
				want.L = []string{}
				for _, e := range v.([]any) {
					want.L = append(want.L, e.(string))
				}
			default:
				t.Fatalf("decoder accepted unknown field %q", k)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (-encoding/json +decoder):\n%s", data, diff)
		}
	})
}

func TestIntegerLiteral(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" for not an integer
	}{
		{"1e2", "100"}, {"-1.00e2", "-100"}, {"3.0", "3"}, {"0.0", "0"}, {"-0.0e5", "0"}, {"1.5", ""},
		{"1.0000000000000001", ""}, {"0.99999999999999999", ""}, {"12.5e1", "125"}, {"125e-1", ""},
		{"1250e-1", "125"}, {"0.001e3", "1"}, {"1e-1", ""}, {"9.223372036854775807e18", "9223372036854775807"},
		{"1e999", "1000000000000000000000000000000000000000"}, {"1e-999", ""}, {"0e99999999999999999999", "0"},
		{"1e99999999999999999999", "1000000000000000000000000000000000000000"},
	}
	for _, tt := range tests {
		got, ok := integerLiteral([]byte(tt.in))
		if !ok {
			got = nil
		}
		if string(got) != tt.want {
			t.Errorf("integerLiteral(%s) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}
