package raceexit

import (
	"os"
	"testing"
)

func TestShorten(t *testing.T) {
	for _, tc := range []struct{ before, want string }{
		{"", "atexit_sleep_ms=10"},
		{"halt_on_error=1", "halt_on_error=1 atexit_sleep_ms=10"},
		{"atexit_sleep_ms=500", "atexit_sleep_ms=500"},
	} {
		t.Setenv("GORACE", tc.before)
		if err := Shorten(); err != nil {
			t.Fatal(err)
		}
		if got := os.Getenv("GORACE"); got != tc.want {
			t.Errorf("GORACE %q after Shorten = %q, want %q", tc.before, got, tc.want)
		}
	}
}
