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

// TestLineDropsControls: a line quoting what a server or a model sent
// (a tool's result, its arguments) cannot drive the terminal it is shown
// on: OSC 52 (write the clipboard), OSC 0 (the window title), CSI (clear
// the screen, move the cursor), a C1 CSI and a lone 0x9b lose their
// introducers; the text around them stays.
func TestLineDropsControls(t *testing.T) {
	in := "ok\x1b]52;c;Y3VybCBldmlsfHNo\x07 \x1b]0;title\x1b\\\x1b[2J\x1b[1A\r\b done \u009b31m\x9b31m ©"
	want := "ok]52;c;Y3VybCBldmlsfHNo ]0;title\\[2J[1A done 31m\ufffd31m ©"
	if got := Line(in, 200); got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if got := Printable("a\nb\tc"); got != "a\nb\tc" {
		t.Errorf("Printable keeps newline and tab: %q", got)
	}
}

// TestPrintableDropsBidiControls: the explicit embeddings, overrides and
// isolates of bidirectional text (U+202A–U+202E, U+2066–U+2069) are
// dropped: a terminal that lays out bidirectional text would show what
// follows them reordered, so that a command read in a question is not the
// one that runs ("Trojan Source"). The implicit marks (LRM, RLM, ALM),
// which right-to-left text uses and which move no letter, stay.
func TestPrintableDropsBidiControls(t *testing.T) {
	in := "rm -rf ~ #\u202e\u2066 hsalf\u2069\u202c ok \u202a\u202b\u202d\u2067\u2068 שלום\u200f \u061c\u200e"
	want := "rm -rf ~ # hsalf ok  שלום\u200f \u061c\u200e"
	if got := Printable(in); got != want {
		t.Errorf("Printable = %q, want %q", got, want)
	}
	if got := Line(in, 200); got != "rm -rf ~ # hsalf ok שלום\u200f \u061c\u200e" {
		t.Errorf("Line = %q", got)
	}
}

// TestJSON: the C1 controls and the controls of bidirectional text of a
// JSON text are written as \u escapes; the rest stays, byte for byte.
func TestJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":"x"}`:                     `{"a":"x"}`,
		"{\"a\":\"é\u009b2J\u202e–\"}":  `{"a":"é\u009b2J\u202e–"}`,
		"[\"\u0080\",\"\u009f\u2069\"]": `["\u0080","\u009f\u2069"]`,
	} {
		if got := string(JSON([]byte(in))); got != want {
			t.Errorf("JSON(%q) = %q, want %q", in, got, want)
		}
	}
}
