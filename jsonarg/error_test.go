package jsonarg

import (
	"fmt"
	"testing"
)

// TestErrorMessage checks that an Error's message is `field %q: %s` (the
// path quoted by Go's rules, escapes and invalid UTF-8 included) or the
// message alone without a path, and that it is written in one allocation.
func TestErrorMessage(t *testing.T) {
	for _, e := range []*Error{
		{Msg: "expected object, got array"},
		{Path: "city", Msg: "required, but missing"},
		{Path: "filter.tags[2]", Msg: `expected one of "a", "b", got "c"`},
		{Path: "naïve \"quoted\"\n\t\x00", Msg: "given more than once"},
		{Path: "bad\xffutf8\u2028", Msg: ""},
	} {
		want := e.Msg
		if e.Path != "" {
			want = fmt.Sprintf("field %q: %s", e.Path, e.Msg)
		}
		if got := e.Error(); got != want {
			t.Errorf("Error() = %q, want %q", got, want)
		}
	}
	e := &Error{Path: "city", Msg: "required, but missing"}
	if n := testing.AllocsPerRun(100, func() { _ = e.Error() }); n != 1 {
		t.Errorf("Error(): %v allocations, want 1", n)
	}
}
