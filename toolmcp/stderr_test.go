package toolmcp

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMountStderrPrintable: what a stdio server writes on its standard
// error reaches MountOptions.Stderr (the agent's terminal) without control
// characters, a C1 control cut between two writes included, its text and
// lines kept. The server's OSC 52 (write the clipboard) and CSI (move the
// cursor, clear lines) went to the terminal as they were.
func TestMountStderrPrintable(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	script := `printf '\033]52;c;aGk=\007clip\n\302\233Ahidden\n' >&2; exec env ` + serverEnv + `=remote "$0"`
	m := mount(t, []string{"s=sh -c " + shellQuote(script) + " " + shellQuote(exe)}, &MountOptions{Stderr: &stderr})
	if len(m.Tools()) == 0 {
		t.Fatal("no tools mounted")
	}
	m.Close()
	if got, want := stderr.String(), "]52;c;aGk=clip\nAhidden\n"; got != want {
		t.Errorf("stderr %q; want %q", got, want)
	}

	// Split writes: ESC alone, a C1 CSI cut in two, a character of
	// three bytes cut in three.
	var b strings.Builder
	w := &printableWriter{w: &b}
	for _, s := range []string{"a\x1b", "[2J\xc2", "\x9bK", "\xe2", "\x82", "\xac\n"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if diff := cmp.Diff("a[2JK€\n", b.String()); diff != "" {
		t.Errorf("split writes (-want +got):\n%s", diff)
	}
}
