package jsonarg

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// TestStringsAgreeWithEncodingJSON reads strings whose special bytes
// (quote, backslash, control, non-ASCII, invalid UTF-8) fall at every
// position of the eight-byte words the scanner reads, through String,
// StringBytes and object keys, and compares each with encoding/json.
func TestStringsAgreeWithEncodingJSON(t *testing.T) {
	specials := []string{
		`\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\ud800\u0041`, `\uDFFF`,
		"é", "日本", "😀", "\xff", "\xed\xa0\x80", "\xe6\x97", "\u2028", "\x7f", "\x00", "\x1f", "\n", `\x`, `\u12`, `\`,
	}
	var inputs []string
	for pre := range 18 {
		for _, sp := range specials {
			for _, post := range []int{0, 1, 7, 8, 9} {
				inputs = append(inputs, `"`+strings.Repeat("a", pre)+sp+strings.Repeat("b", post)+`"`)
			}
			inputs = append(inputs, `"`+strings.Repeat("a", pre)+sp) // unterminated
		}
	}
	for _, in := range inputs {
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

		d = NewDecoder([]byte(in))
		b, err := d.StringBytes()
		if err == nil {
			err = d.End()
		}
		if (err == nil) != (wantErr == nil) || err == nil && string(b) != want {
			t.Errorf("StringBytes(%q) = %q, %v; encoding/json: %q, %v", in, b, err, want, wantErr)
		}

		obj := "{" + in + ":1}"
		var m map[string]int
		wantErr = json.Unmarshal([]byte(obj), &m)
		d = NewDecoder([]byte(obj))
		if err := d.ObjectStart(); err != nil {
			t.Fatal(err)
		}
		key, _, err := d.NextField()
		if err == nil {
			_, err = d.Int(64)
		}
		if err == nil {
			_, _, err = d.NextField()
		}
		if (err == nil) != (wantErr == nil) {
			t.Errorf("key %q: error %v; encoding/json: %v", in, err, wantErr)
		} else if err == nil {
			if _, ok := m[string(key)]; !ok || len(m) != 1 {
				t.Errorf("key %q read as %q; encoding/json: %v", in, key, m)
			}
		}
	}
}

// TestStringErrorOffsets checks that the offsets in syntax errors do not
// depend on where the scanner's words begin.
func TestStringErrorOffsets(t *testing.T) {
	for pre := range 20 {
		a := strings.Repeat("a", pre)
		for in, want := range map[string]int{
			`"` + a + "\x01" + `"`:     1 + pre,
			`"` + a + `\q"`:            2 + pre,
			`"` + a + `é\q"`:           4 + pre,
			`"` + a + `\n` + "\x01\"":  3 + pre,
			`"` + a + `\u12"`:          2 + pre,
			`"` + a:                    1 + pre,
			`"` + a + `\`:              2 + pre,
			`"` + a + "\xff\x02" + `"`: 2 + pre,
		} {
			d := NewDecoder([]byte(in))
			_, err := d.String()
			e, ok := err.(*Error)
			if !ok || !e.syntax {
				t.Errorf("%q: error %v, want a syntax error", in, err)
				continue
			}
			if d.pos != want {
				t.Errorf("%q: error at offset %d, want %d (%v)", in, d.pos, want, err)
			}
		}
	}
}

// TestStringDecoderShares checks that a NewStringDecoder's String hands
// out a plain string as part of its text, without allocating, and an
// escaped one as a copy with its escapes read; NewDecoder's copies both.
func TestStringDecoderShares(t *testing.T) {
	const text = `{"plain":"Berlin","escaped":"a\nb","empty":""}`
	raw := []byte(text)
	rawText := unsafe.String(unsafe.SliceData(raw), len(raw)) // to ask partOf
	for _, c := range []struct {
		value, want     string
		shared          bool
		allocs, fromRaw float64 // from NewStringDecoder, from NewDecoder
	}{
		{`"Berlin"`, "Berlin", true, 0, 1},
		{`"a\nb"`, "a\nb", false, 1, 1},
		{`""`, "", false, 0, 0},
	} {
		at := strings.Index(text, c.value)
		read := func(d Decoder) string {
			d.pos = at
			s, err := d.String()
			if err != nil {
				t.Fatalf("%s: %v", c.value, err)
			}
			return s
		}
		got := read(NewStringDecoder(text))
		if got != c.want {
			t.Errorf("%s: read %q, want %q", c.value, got, c.want)
		}
		if partOf(got, text) != c.shared {
			t.Errorf("%s: part of the text: %v, want %v", c.value, partOf(got, text), c.shared)
		}
		if n := testing.AllocsPerRun(100, func() { read(NewStringDecoder(text)) }); n != c.allocs {
			t.Errorf("%s: %v allocations from a string, want %v", c.value, n, c.allocs)
		}
		if got := read(NewDecoder(raw)); got != c.want || partOf(got, rawText) {
			t.Errorf("%s: from bytes %q (part of them: %v), want a copy of %q", c.value, got, partOf(got, rawText), c.want)
		}
		if n := testing.AllocsPerRun(100, func() { read(NewDecoder(raw)) }); n != c.fromRaw {
			t.Errorf("%s: %v allocations from bytes, want %v", c.value, n, c.fromRaw)
		}
	}
}

// TestStringAllocations checks that a plain string costs one allocation
// (the string), an escaped one too, and StringBytes none when there is
// nothing to unescape.
func TestStringAllocations(t *testing.T) {
	plain := []byte(`"` + strings.Repeat("plain text, ", 100) + `"`)
	escaped := []byte(`"` + strings.Repeat(`line\n\"quoted\" é\u00e9 `, 100) + `"`)
	for _, c := range []struct {
		name string
		want float64
		f    func()
	}{
		{"String plain", 1, func() { d := NewDecoder(plain); d.String() }},
		{"String escaped", 1, func() { d := NewDecoder(escaped); d.String() }},
		{"StringBytes plain", 0, func() { d := NewDecoder(plain); d.StringBytes() }},
	} {
		if got := testing.AllocsPerRun(100, c.f); got != c.want {
			t.Errorf("%s: %v allocations, want %v", c.name, got, c.want)
		}
	}
	d := NewDecoder(escaped)
	s, err := d.String()
	if err != nil || !utf8.ValidString(s) {
		t.Errorf("escaped: %q, %v", s, err)
	}
}
