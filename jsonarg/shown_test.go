package jsonarg

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/internal/clip"
)

// TestMessageOfALongString: the message about a value of the wrong kind
// quotes 40 bytes of it and costs no more: a string of 500,000 escapes
// (1 MB, the registry's argument limit) sent where an object belongs
// allocated 3,046,956 bytes to say so, a string or number of 1 MB
// without escapes 1,008,047; Valid allocated 2,538,234 bytes to read the
// escaped one.
func TestMessageOfALongString(t *testing.T) {
	for _, data := range []string{
		`"` + strings.Repeat(`\"`, 500_000) + `"`,
		`"` + strings.Repeat(`\ud83d\ude00`, 100_000) + `"`,
		`"` + strings.Repeat("a", 1_000_000) + `"`,
		strings.Repeat("1", 1_000_000) + ".5",
	} {
		b := []byte(data)
		var msg string
		if got := allocated(func() { d := NewDecoder(b); msg = d.ObjectStart().Error() }); got > 4<<10 {
			t.Errorf("%.20s…: the message allocated %d bytes", data, got)
		}
		if len(msg) > 120 || !strings.HasPrefix(msg, "expected object, got ") || !strings.HasSuffix(msg, clip.Ellipsis+`"`) && !strings.HasSuffix(msg, clip.Ellipsis) {
			t.Errorf("%.20s…: message %q", data, msg)
		}
		// Valid allocates nothing; the bound leaves room for what the
		// runtime allocates meanwhile (1 byte a run on average in a
		// -race run of CI), far below the 2.5 MB of a copy.
		if got := allocated(func() { Valid(b) }); got > 64 {
			t.Errorf("%.20s…: Valid allocated %d bytes", data, got)
		}
	}
}

// allocated returns the bytes f allocates, on average over 10 runs.
func allocated(f func()) uint64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / 10
}

// FuzzSkipString: skipString reads a string as readString does, with the
// same error at the same offset, and the message quoting a string is what
// decoding it whole and clipping it would say.
func FuzzSkipString(f *testing.F) {
	for _, s := range []string{`"a"`, `"\"`, `"\u00e9\ud83d\ude00"`, `"\ud800\u00zz"`, "\"\xff\xfe\"", `"\q"`, `"\u12"`, "\"\x01\"", `"abc`, `"\`, `"` + strings.Repeat(`\n`, 60) + `"`, `"` + strings.Repeat(`é`, 30) + `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || data[0] != '"' {
			return
		}
		r := Decoder{data: data}
		b, rerr := r.readString()
		s := Decoder{data: data}
		serr := s.skipString()
		if (rerr == nil) != (serr == nil) || rerr != nil && rerr.Error() != serr.Error() || r.pos != s.pos {
			t.Fatalf("%q: readString %v at %d, skipString %v at %d", data, rerr, r.pos, serr, s.pos)
		}
		d := Decoder{data: data}
		got, ok := d.stringShown()
		if ok != (rerr == nil) {
			t.Fatalf("%q: stringShown ok %v, readString %v", data, ok, rerr)
		}
		if want := clip.String(string(b), maxShown); ok && got != want {
			t.Fatalf("%q: shown %s, want %s", data, strconv.Quote(got), strconv.Quote(want))
		}
	})
}
