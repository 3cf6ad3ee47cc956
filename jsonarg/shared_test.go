package jsonarg

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// partOf reports whether s (not empty) lies within the bytes of text.
func partOf(s, text string) bool {
	if s == "" || text == "" {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	return p >= lo && p < lo+uintptr(len(text))
}

// TestStringDecoderAgreesWithEncodingJSON is TestStringsAgreeWithEncodingJSON
// for NewStringDecoder, whose String shares the strings without escapes:
// each string it reads is valid UTF-8 and what encoding/json reads, and
// one that held invalid UTF-8 is a copy (with U+FFFD), never a part of
// the text.
func TestStringDecoderAgreesWithEncodingJSON(t *testing.T) {
	specials := []string{
		`\"`, `\\`, `\/`, `\n`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\uDFFF`,
		"é", "日本", "😀", "\uFFFD", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe6\x97", "\u2028", "\x7f", "\x00", "\x1f",
	}
	var inputs []string
	for pre := range 18 {
		for _, sp := range specials {
			for _, post := range []int{0, 1, 7, 8, 9} {
				inputs = append(inputs, `"`+strings.Repeat("a", pre)+sp+strings.Repeat("b", post)+`"`)
			}
		}
	}
	// Random bytes, biased to the high half and to the specials of JSON.
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\"\\/nu0\x00\x1f\x7f\x80\xbf\xc0\xc2\xdf\xe0\xed\xef\xf0\xf4\xf5\xff")
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			if r.IntN(3) == 0 {
				b[i] = byte(r.IntN(256))
			} else {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		inputs = append(inputs, `"`+string(b)+`"`)
	}
	for _, in := range inputs {
		var want string
		wantErr := json.Unmarshal([]byte(in), &want)
		d := NewStringDecoder(in)
		got, err := d.String()
		if err == nil {
			err = d.End()
		}
		if (err == nil) != (wantErr == nil) || err == nil && got != want {
			t.Errorf("String(%q) from a string = %q, %v; encoding/json: %q, %v", in, got, err, want, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if !utf8.ValidString(got) {
			t.Errorf("String(%q) from a string = %q: invalid UTF-8", in, got)
		}
		if partOf(got, in) && (strings.Contains(in, `\`) || !utf8.ValidString(in)) {
			t.Errorf("String(%q) from a string is part of the text, though the string had escapes or invalid UTF-8", in)
		}
	}
}

// TestStringDecoderFreeValuesAreCopies checks that the values a tool may
// write into, or that need no text at all, do not share the text of a
// NewStringDecoder: a json.RawMessage (SetRaw) is a []byte the tool owns,
// a map key and the strings of an any are copies.
func TestStringDecoderFreeValuesAreCopies(t *testing.T) {
	text := strings.Clone(`{"raw":{"a":"b"},"any":{"k":"value"},"map":{"key":"v"}}`)
	d := NewStringDecoder(text)
	var raw json.RawMessage
	var anyv any
	var key, val string
	if err := d.Args(&Fields{Names: []string{"raw", "any", "map"}}, []Reader{
		ReadFunc(func() error { return SetRaw(&d, &raw) }),
		ReadFunc(func() error { return SetAny(&d, &anyv) }),
		ReadFunc(func() error {
			return d.Map(func(k string) error { key = k; return SetString(&d, &val, -1, -1) })
		}),
	}); err != nil {
		t.Fatal(err)
	}
	if partOf(unsafe.String(unsafe.SliceData(raw), len(raw)), text) {
		t.Errorf("SetRaw: %s is part of the text; a tool may write into it", raw)
	}
	raw[0] = 'X' // the tool's own
	if !strings.HasPrefix(text, `{"raw":{`) {
		t.Errorf("writing into the RawMessage changed the arguments' text: %s", text)
	}
	if s := anyv.(map[string]any)["k"].(string); partOf(s, text) {
		t.Errorf("SetAny: %q is part of the text", s)
	}
	if partOf(key, text) {
		t.Errorf("Map: key %q is part of the text", key)
	}
	if !partOf(val, text) {
		t.Errorf("Map: value %q is a copy; want it shared, as String's", val)
	}
}

// TestStringDecoderBytesHaveNoRoomInTheText checks that the []byte results
// of a NewStringDecoder (NextField's key, StringBytes), which are parts of
// a Go string, cannot be appended to in place: an append must not write
// into the string (a string constant is in read-only memory, and any
// other string may be shared with the caller).
func TestStringDecoderBytesHaveNoRoomInTheText(t *testing.T) {
	const orig = `{"key":"value"}`
	text := strings.Clone(orig)
	d := NewStringDecoder(text)
	if err := d.ObjectStart(); err != nil {
		t.Fatal(err)
	}
	key, _, err := d.NextField()
	if err != nil {
		t.Fatal(err)
	}
	_ = append(key, '!')
	b, err := d.StringBytes()
	if err != nil {
		t.Fatal(err)
	}
	_ = append(b, '!')
	if text != orig {
		t.Errorf("appending to the decoder's results wrote into the string: %s, was %s", text, orig)
	}
	if cap(key) != len(key) || cap(b) != len(b) {
		t.Errorf("key cap %d len %d, StringBytes cap %d len %d: room past them lies in the string", cap(key), len(key), cap(b), len(b))
	}
}

// TestStringDecoderSharesShortTextsAndLargeParts checks the limit of
// sharing at, below and past it: in a text of at most maxSharedText bytes
// every string without escapes is shared; in a longer one only a string
// of at least a quarter of the text.
func TestStringDecoderSharesShortTextsAndLargeParts(t *testing.T) {
	// text returns {"s":"<n x's>"} padded with spaces to size bytes.
	text := func(n, size int) string {
		s := `{"s":"` + strings.Repeat("x", n) + `"}`
		return s + strings.Repeat(" ", size-len(s))
	}
	for _, c := range []struct {
		name       string
		n, size    int
		wantShared bool
	}{
		{"short string, text below the limit", 2, maxSharedText - 1, true},
		{"short string, text at the limit", 2, maxSharedText, true},
		{"short string, text past the limit", 2, maxSharedText + 1, false},
		{"a quarter of a long text", 5000, 20000, true},
		{"just under a quarter of a long text", 4999, 20000, false},
		{"more than a quarter of a long text", 5001, 20000, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := text(c.n, c.size)
			d := NewStringDecoder(in)
			if err := d.ObjectStart(); err != nil {
				t.Fatal(err)
			}
			if _, _, err := d.NextField(); err != nil {
				t.Fatal(err)
			}
			s, err := d.String()
			if err != nil {
				t.Fatal(err)
			}
			if len(s) != c.n {
				t.Fatalf("read %d bytes, want %d", len(s), c.n)
			}
			if got := partOf(s, in); got != c.wantShared {
				t.Errorf("a %d-byte string of a %d-byte text: shared %v, want %v", c.n, len(in), got, c.wantShared)
			}
		})
	}
}
