package agentcli

import (
	"context"
	"io"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestToolsUndumpable: agent tools, which makes no worker pool, still
// leaves the agent undumpable as a pool does, since the servers of -mcp
// run beside it as the same user; with -isolate none, as before, it
// does not.
func TestToolsUndumpable(t *testing.T) {
	was, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		t.Fatalf("prctl(PR_GET_DUMPABLE): %v", err)
	}
	t.Cleanup(func() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, uintptr(was), 0, 0, 0) })
	for _, tc := range []struct {
		isolate  string
		dumpable int
	}{{"none", 1}, {"all", 0}, {"capable", 0}} {
		if err := unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0); err != nil {
			t.Fatalf("prctl(PR_SET_DUMPABLE, 1): %v", err)
		}
		var stderr strings.Builder
		c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
		if code := c.run(context.Background(), []string{"tools", "-isolate", tc.isolate}); code != 0 {
			t.Fatalf("agent tools -isolate %s: exit %d, stderr %q", tc.isolate, code, stderr.String())
		}
		got, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
		if err != nil {
			t.Fatalf("prctl(PR_GET_DUMPABLE): %v", err)
		}
		if got != tc.dumpable {
			t.Errorf("after agent tools -isolate %s the process is dumpable=%d, want %d", tc.isolate, got, tc.dumpable)
		}
	}
}
