package clip

import "testing"

func TestString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},   // at the limit
		{"abc", 4, "abc"},   // below
		{"abcd", 3, "abc…"}, // past
		{"ééé", 3, "é…"},    // no cut inside a character
		{"ééé", 6, "ééé"},
		{"abc", 0, "…"},
		{"abc", -1, "…"},
		{"", 0, ""},
	} {
		if got := String(tc.in, tc.n); got != tc.want {
			t.Errorf("String(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"  a\n b\t\tc \n", 5, "a b c"}, // at the limit, on one line
		{"a b c", 6, "a b c"},           // below
		{"a b c", 4, "a b …"},           // past
		{"日本語です", 3, "日本語…"},            // characters, not bytes
		{"", 3, ""},
	} {
		if got := Line(tc.in, tc.n); got != tc.want {
			t.Errorf("Line(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
