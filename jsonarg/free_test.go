package jsonarg

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestMap checks maps of strings: empty, one and several keys, any key
// (empty, with escapes, not ASCII), a key twice, an error located at its
// key, and what is not an object.
func TestMap(t *testing.T) {
	read := func(d *Decoder, p *map[string]string) error {
		*p = map[string]string{}
		return d.Map(func(k string) error {
			var v string
			err := SetString(d, &v, 0, 3)
			(*p)[k] = v
			return err
		})
	}
	runSet(t, []setCase{
		{`{}`, ok("map[]")},
		{`{"a":"x"}`, ok("map[a:x]")},
		{`{"a":"x","b":"yyy","":"","fuß\n":"é"}`, ok("map[: a:x b:yyy fuß\n:é]")},
		{`{"a":"x","a":"y"}`, fails(`field "a": given more than once`)},
		{`{"a":"x","b":"yyyy"}`, fails(`field "b": expected a string of at most 3 characters, got 4`)},
		{`{"a":1}`, fails(`field "a": expected string, got number 1`)},
		{`["a"]`, fails(`expected object, got array`)},
		{`null`, fails(`expected object, got null (null is not accepted: send a value, or leave an optional field out)`)},
		{`{"a":"x",}`, fails(`invalid JSON at offset 9: expected a string key`)},
	}, read)
}

// TestSetAny checks every kind of JSON value, null included, numbers past
// float64 and broken syntax.
func TestSetAny(t *testing.T) {
	show := func(d *Decoder, p *string) error {
		var v any
		err := SetAny(d, &v)
		*p = fmt.Sprintf("%T %v", v, v)
		return err
	}
	runSet(t, []setCase{
		{`null`, ok("<nil> <nil>")},
		{`true`, ok("bool true")},
		{` 1.5 `, ok("float64 1.5")},
		{`"s"`, ok("string s")},
		{`[1,"a",null]`, ok("[]interface {} [1 a <nil>]")},
		{`{"a":{"b":[]}}`, ok("map[string]interface {} map[a:map[b:[]]]")},
		{`1e400`, fails(`expected a JSON value: json: cannot unmarshal number 1e400 into Go value of type float64`)},
		{`[1,`, fails(`expected a value, got end of input`)},
	}, show)
}

// TestSetRaw checks that the text of any value is kept as sent, as a
// copy.
func TestSetRaw(t *testing.T) {
	runSet(t, []setCase{
		{`null`, ok("null")},
		{` {"a": [1, 2]} `, ok(`{"a": [1, 2]}`)},
		{`"x\u00e9"`, ok(`"x\u00e9"`)},
		{`{"a":}`, fails(`expected a value, got invalid character '}'`)},
	}, func(d *Decoder, p *string) error {
		var raw json.RawMessage
		err := SetRaw(d, &raw)
		*p = string(raw)
		return err
	})
	data := []byte(`{"a":1}`)
	d := NewDecoder(data)
	var raw json.RawMessage
	if err := SetRaw(&d, &raw); err != nil {
		t.Fatal(err)
	}
	data[1] = 'X'
	if string(raw) != `{"a":1}` {
		t.Errorf("SetRaw kept the input's bytes: %s", raw)
	}
}

// TestSetRawDepth checks that SetRaw reads what encoding/json reads into a
// json.RawMessage at the deepest nesting it takes, 10,000 arrays and
// objects, and refuses one level more, as json.Unmarshal does.
func TestSetRawDepth(t *testing.T) {
	for _, tc := range []struct {
		open, close string
	}{{"[", "]"}, {`{"a":`, "}"}, {`[{"a":`, "}]"}} {
		for _, n := range []int{9999 / len(tc.close), 10000 / len(tc.close), 10002 / len(tc.close)} {
			text := strings.Repeat(tc.open, n) + "1" + strings.Repeat(tc.close, n)
			var want json.RawMessage
			wantErr := json.Unmarshal([]byte(text), &want)
			d := NewStringDecoder(text)
			var raw json.RawMessage
			err := SetRaw(&d, &raw)
			if (err != nil) != (wantErr != nil) {
				t.Errorf("%s × %d: SetRaw error %v; json.Unmarshal error %v", tc.open, n, err, wantErr)
				continue
			}
			if err != nil && !strings.Contains(err.Error(), "nested at most 10000 levels deep") {
				t.Errorf("%s × %d: error %q does not say how deep a value may nest", tc.open, n, err)
			}
			if diff := cmp.Diff(string(want), string(raw)); diff != "" {
				t.Errorf("%s × %d: SetRaw (-json.Unmarshal +SetRaw):\n%s", tc.open, n, diff)
			}
		}
	}
}

// TestQuoted checks values sent inside a string, as json:",string" reads
// them: at and past the bounds of the value read, with spaces, two
// values, bad syntax, and a value not in a string.
func TestQuoted(t *testing.T) {
	runSet(t, []setCase{
		{`"100"`, ok("100")},
		{`"101"`, fails(`expected integer from 1 to 100, got 101, in the string "101"`)},
		{`"1"`, ok("1")},
		{`"0"`, fails(`expected integer from 1 to 100, got 0, in the string "0"`)},
		{`"1e2"`, ok("100")},
		{`" 7"`, fails(`expected a string that holds the value alone, such as "42", got " 7"`)},
		{`""`, fails(`expected a string that holds the value alone, such as "42", got ""`)},
		{`"7 8"`, fails(`expected a string that holds the value alone, such as "42", got "7 8"`)},
		{`"7x"`, fails(`expected a string that holds the value alone, such as "42", got "7x"`)},
		{`"\"7\""`, fails(`expected integer, got string "7", in the string "\"7\""`)},
		{`7`, fails(`expected a string that holds the value, such as "42", got number 7`)},
	}, func(d *Decoder, p *int) error {
		return Quoted(d, func(d *Decoder) error { return SetInt(d, p, 64, 1, 100) })
	})
	// A value read from arguments held as a string is read where it is:
	// no copy of the argument text or of the string's, and no decoder of
	// its own (the caller's, given read functions, is where it is).
	var n int
	d := new(Decoder)
	allocs := testing.AllocsPerRun(100, func() {
		*d = NewStringDecoder(`"42"`)
		if err := Quoted(d, func(d *Decoder) error { return SetInt(d, &n, 64, 1, 100) }); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || n != 42 {
		t.Errorf("Quoted of \"42\" from a string decoder: %d, %v allocations; want 42, 0", n, allocs)
	}
	runSet(t, []setCase{
		{`"true"`, ok("true")},
		{`"false"`, ok("false")},
		{`"True"`, fails(`expected boolean, got invalid character 'T', in the string "True"`)},
	}, func(d *Decoder, p *bool) error {
		return Quoted(d, func(d *Decoder) error { return SetBool(d, p) })
	})
}

// TestMapKeysInAnyOrder checks that the keys of a map are checked for
// repeats in time that does not grow with the square of their number: a
// map of 1 MiB of keys sent in descending order, each of which went to the
// front of a sorted slice, took seconds where the same keys ascending took
// milliseconds. The times are compared with each other, the best of three
// runs each, so that the load of the machine counts for both.
func TestMapKeysInAnyOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("times two decodings of 1 MiB; skipped with -short")
	}
	text := func(descending bool) string {
		var b strings.Builder
		b.WriteByte('{')
		const n = 1 << 16
		for i := range n {
			k := 1<<20 + i
			if descending {
				k = 1<<20 + n - i
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%x":""`, k)
		}
		b.WriteByte('}')
		return b.String()
	}
	best := func(s string) time.Duration {
		least := time.Duration(math.MaxInt64)
		for range 3 {
			d := NewStringDecoder(s)
			start := time.Now()
			n := 0
			err := d.Map(func(string) error { n++; return SetString(&d, new(string), -1, -1) })
			least = min(least, time.Since(start))
			if err != nil || n != 1<<16 {
				t.Fatalf("Map: %d keys, %v", n, err)
			}
		}
		return least
	}
	up, down := best(text(false)), best(text(true))
	if down > 5*up+20*time.Millisecond {
		t.Errorf("Map of %d keys: %v in descending order, %v in ascending order", 1<<16, down, up)
	}
}
