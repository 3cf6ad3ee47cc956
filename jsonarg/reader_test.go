package jsonarg

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// every holds a field of each kind a Reader reads.
type every struct {
	S    string
	M    string
	O    string
	B    bool
	I    int
	I8   int8
	I16  int16
	I32  int32
	I64  int64
	U    uint
	U8   uint8
	U16  uint16
	U32  uint32
	U64  uint64
	UP   uintptr
	F32  float32
	F64  float64
	L    []string
	Next *every
}

var everyFields = Fields{
	Names: []string{"s", "m", "o", "b", "i", "i8", "i16", "i32", "i64", "u", "u8", "u16", "u32", "u64", "up", "f32", "f64", "l", "next"},
	Match: []*Pattern{1: {Expr: "^x+$"}},
	OneOf: [][]string{2: {"yes", "no"}},
}

var nextFields = Fields{Names: []string{"b", "i", "l"}}

func decodeEvery(data []byte, v *every) error {
	d := NewDecoder(data)
	return d.Args(&everyFields, []Reader{
		String(&v.S, 1, 3),
		StringMatching(&v.M, -1, 2),
		StringOneOf(&v.O),
		Bool(&v.B),
		Int(&v.I, -1, 1),
		Int(&v.I8, math.MinInt64, math.MaxInt64),
		Int(&v.I16, math.MinInt64, math.MaxInt64),
		Int(&v.I32, math.MinInt64, math.MaxInt64),
		Int(&v.I64, math.MinInt64, 5),
		Uint(&v.U, 2, math.MaxUint64),
		Uint(&v.U8, 0, math.MaxUint64),
		Uint(&v.U16, 0, math.MaxUint64),
		Uint(&v.U32, 0, math.MaxUint64),
		Uint(&v.U64, 0, math.MaxUint64),
		Uint(&v.UP, 0, 9),
		Float(&v.F32, math.Inf(-1), math.Inf(1)),
		Float(&v.F64, 0.5, math.Inf(1)),
		Strings(&v.L, 1, 2),
		ReadFunc(func() error {
			v.Next = new(every)
			return d.Object(&nextFields, []Reader{
				Bool(&v.Next.B),
				Int(&v.Next.I, -1, 1),
				Strings(&v.Next.L, -1, -1),
			})
		}),
	})
}

// TestReaders checks each kind of Reader: the value it stores, the width
// it reads (from the pointer's type) and the bounds it checks, at and past
// each.
func TestReaders(t *testing.T) {
	full := `{"s":"abc","m":"xx","o":"no","b":true,"i":-1,"i8":-128,"i16":32767,"i32":-2147483648,"i64":5,` +
		`"u":2,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"up":9,"f32":1.5,"f64":0.5,"l":["a","b"],"next":{"l":["c"]}}`
	want := every{S: "abc", M: "xx", O: "no", B: true, I: -1, I8: -128, I16: 32767, I32: -2147483648, I64: 5,
		U: 2, U8: 255, U16: 65535, U32: 4294967295, U64: math.MaxUint64, UP: 9, F32: 1.5, F64: 0.5, L: []string{"a", "b"},
		Next: &every{L: []string{"c"}}}
	var got every
	if err := decodeEvery([]byte(full), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, c := range []struct{ in, want string }{
		{`{"s":""}`, `field "s": expected a string of at least 1 character, got 0`},
		{`{"s":"abcd"}`, `field "s": expected a string of at most 3 characters, got 4`},
		{`{"m":"xy"}`, `field "m": expected a string matching "^x+$", got "xy"`},
		{`{"m":"xxx"}`, `field "m": expected a string of at most 2 characters, got 3`},
		{`{"o":"maybe"}`, `field "o": expected one of "yes", "no", got "maybe"`},
		{`{"b":1}`, `field "b": expected boolean, got number 1`},
		{`{"i":-2}`, `field "i": expected integer from -1 to 1, got -2`},
		{`{"i":2}`, `field "i": expected integer from -1 to 1, got 2`},
		{`{"i8":-129}`, `field "i8": expected integer from -128 to 127, got -129`},
		{`{"i16":32768}`, `field "i16": expected integer from -32768 to 32767, got 32768`},
		{`{"i32":2147483648}`, `field "i32": expected integer from -2147483648 to 2147483647, got 2147483648`},
		{`{"i64":6}`, `field "i64": expected integer of at most 5, got 6`},
		{`{"u":1}`, `field "u": expected integer of at least 2, got 1`},
		{`{"u8":256}`, `field "u8": expected integer from 0 to 255, got 256`},
		{`{"u16":65536}`, `field "u16": expected integer from 0 to 65535, got 65536`},
		{`{"u32":4294967296}`, `field "u32": expected integer from 0 to 4294967295, got 4294967296`},
		{`{"u64":-1}`, `field "u64": expected integer from 0 to 18446744073709551615, got -1`},
		{`{"up":10}`, `field "up": expected integer of at most 9, got 10`},
		{`{"f32":1e39}`, `field "f32": expected number from -3.4028234663852886e+38 to 3.4028234663852886e+38 (a 32-bit float), got 1e39`},
		{`{"f64":0.49}`, `field "f64": expected number of at least 0.5, got 0.49`},
		{`{"l":[]}`, `field "l": expected at least 1 item, got 0`},
		{`{"l":["a","b","c"]}`, `field "l": expected at most 2 items, got 3`},
		{`{"l":["a",1]}`, `field "l[1]": expected string, got number 1`},
		{`{"next":{"i":3}}`, `field "next.i": expected integer from -1 to 1, got 3`},
		{`{"next":{"l":[2]}}`, `field "next.l[0]": expected string, got number 2`},
	} {
		var v every
		if err := decodeEvery([]byte(c.in), &v); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
	var empty every
	if err := decodeEvery([]byte(`{"l":[]}`), &empty); err == nil {
		t.Error(`{"l":[]} accepted below minItems`)
	}
	var list every
	if err := decodeEvery([]byte(`{"l":["a"]}`), &list); err != nil || list.L == nil {
		t.Errorf(`{"l":["a"]}: %v, %#v`, err, list.L)
	}
}

// TestReadersMisused checks that Readers that do not match the Fields
// fail with an error instead of a panic: too few or too many, a zero
// Reader, and a pattern or values missing from the Fields.
func TestReadersMisused(t *testing.T) {
	one := Fields{Names: []string{"a"}}
	var s string
	for _, c := range []struct {
		name string
		read []Reader
		want string
	}{
		{"too few", nil, "jsonarg: 0 readers for the 1 fields of the object"},
		{"too many", []Reader{String(&s, -1, -1), String(&s, -1, -1)}, "jsonarg: 2 readers for the 1 fields of the object"},
		{"zero", []Reader{{}}, `field "a": jsonarg: this field has no reader`},
		{"no pattern", []Reader{StringMatching(&s, -1, -1)}, `field "a": jsonarg: this field has no reader`},
		{"no values", []Reader{StringOneOf(&s)}, `field "a": jsonarg: this field has no reader`},
	} {
		d := NewDecoder([]byte(`{"a":"x"}`))
		if err := d.Args(&one, c.read); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestReadersAllocations checks that the Readers of a call, and the
// functions they hold, stay on the stack: a decode allocates only the
// values it keeps.
func TestReadersAllocations(t *testing.T) {
	data := []byte(`{"s":"abc","o":"yes","i":1,"l":["ab"],"next":{"b":true}}`)
	n := testing.AllocsPerRun(100, func() {
		var v every
		if err := decodeEvery(data, &v); err != nil {
			t.Fatal(err)
		}
	})
	// "abc", the list, "ab", and next.
	if n != 4 {
		t.Errorf("%v allocations, want 4", n)
	}
}

// TestReadersNamedTypes checks that Int, Uint and Float read into named
// number types, at the widths of their underlying types, and refuse what
// is past those widths.
func TestReadersNamedTypes(t *testing.T) {
	type (
		level  int8
		count  uint16
		weight float32
	)
	var v struct {
		L level
		C count
		W weight
	}
	fields := Fields{Names: []string{"l", "c", "w"}}
	read := func(data string) error {
		d := NewDecoder([]byte(data))
		return d.Args(&fields, []Reader{
			Int(&v.L, math.MinInt64, math.MaxInt64),
			Uint(&v.C, 0, math.MaxUint64),
			Float(&v.W, math.Inf(-1), math.Inf(1)),
		})
	}
	if err := read(`{"l":-128,"c":65535,"w":1.5}`); err != nil {
		t.Fatalf("read: %v", err)
	}
	if v.L != -128 || v.C != 65535 || v.W != 1.5 {
		t.Errorf("read %+v, want {L:-128 C:65535 W:1.5}", v)
	}
	for _, data := range []string{`{"l":128}`, `{"c":65536}`, `{"w":1e39}`} {
		if err := read(data); err == nil {
			t.Errorf("%s: accepted a value past the field's width", data)
		}
	}
}
