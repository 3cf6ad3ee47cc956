package nearest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"model", "model", 0},
		{"modle", "model", 1}, // a swap
		{"mdel", "model", 1},
		{"modell", "model", 1},
		{"max-step", "max-steps", 1},
		{"abc", "xyz", 3},
		{"", "abc", 3},
		{"模型", "模形", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestWord(t *testing.T) {
	words := []string{"model", "max-steps", "max-tool-calls", "json", "q", "v", "tools"}
	for _, tc := range []struct{ w, want string }{
		{"modle", "model"},  // one edit
		{"mdoel", "model"},  // a swap
		{"modxyl", "model"}, // two edits of a long word
		{"mxdxyl", ""},      // three
		{"mod", "model"},    // a prefix of three letters
		{"mo", ""},          // too short for a prefix
		{"jsn", "json"},     // one edit of a short word
		{"jx", ""},          // two edits of a short word: too far
		{"max-stepz", "max-steps"},
		{"max-too-call", "max-tool-calls"}, // two edits
		{"max-to-cal", ""},                 // three
		{"TOOLS", "tools"},
	} {
		if got := Word(words, tc.w); got != tc.want {
			t.Errorf("Word(%q) = %q, want %q", tc.w, got, tc.want)
		}
	}
}
