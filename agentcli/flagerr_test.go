package agentcli

import (
	"errors"
	"testing"
)

func TestEditDistance(t *testing.T) {
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
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearestWord(t *testing.T) {
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
		if got := nearestWord(words, tc.w); got != tc.want {
			t.Errorf("nearestWord(%q) = %q, want %q", tc.w, got, tc.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	if got := exitCode(errors.New("x")); got != exitFailed {
		t.Errorf("exitCode(plain) = %d, want %d", got, exitFailed)
	}
	if got := exitCode(errorsJoin(&usageError{errors.New("x")})); got != exitUsage {
		t.Errorf("exitCode(wrapped usage) = %d, want %d", got, exitUsage)
	}
}

func errorsJoin(err error) error { return errors.Join(errors.New("context"), err) }
