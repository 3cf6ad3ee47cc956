//go:build linux

package sandbox

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestTerminalsOutOfReachWithoutNamespaces: in its namespaces a worker
// has a /dev/pts of its own (TestTerminalsOutOfReach); without them it
// has the machine's, which holds the user's terminals, the agent's
// among them, owned by the user the worker runs as: a tool with
// read_files read what was typed in one ("hunter2", a password typed to
// sudo in another window, or the user's answer to the agent's
// confirmation), and could have left a goroutine reading it for as long
// as its worker lives. Without namespaces no devpts is granted, nor
// /dev/ptmx, which makes terminals in the machine's.
func TestTerminalsOutOfReachWithoutNamespaces(t *testing.T) {
	needLandlock(t, 1)
	m, pts := openTerminal(t)
	// The user's side stays open, as a shell's would.
	s, err := unix.Open(pts, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(s)
	p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true })
	buf := make([]byte, 64)
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		if _, err := unix.Write(m, []byte("hunter2\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // the line discipline hands the line on
		got, err := call(t, p, "r6_readdev#"+caps.String(), caps, r6Args{Path: pts})
		wantErrno(t, "the user's terminal, "+caps.String(), err, "EACCES")
		if err == nil || strings.Contains(got, "hunter2") {
			t.Errorf("without namespaces, a worker with %s read the user's terminal %s: %q", caps, pts, got)
		}
		// What was typed is still there for the user's program.
		if k, err := unix.Read(s, buf); err != nil || !strings.Contains(string(buf[:max(k, 0)]), "hunter2") {
			t.Errorf("the terminal's own reader got %q, %v; want what was typed", buf[:max(k, 0)], err)
		}
		for _, dev := range []string{"/dev/ptmx", "/dev/pts/ptmx"} {
			_, err := call(t, p, "r6_readdev#"+caps.String(), caps, r6Args{Path: dev})
			wantErrno(t, dev+", "+caps.String(), err, "EACCES")
		}
		// The positive control: the devices a Go program reads.
		for _, dev := range []string{"/dev/null", "/dev/urandom"} {
			if _, err := call(t, p, "r7_readdev#"+caps.String(), caps, r7Args{Path: dev}); err != nil {
				t.Errorf("reading %s with %s: %v", dev, caps, err)
			}
		}
	}
}
