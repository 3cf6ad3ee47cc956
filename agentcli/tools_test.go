package agentcli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// countedWriter counts the writes it is given; from the failAt-th on,
// when failAt is above 0, each fails.
type countedWriter struct {
	bytes.Buffer
	writes, failAt int
}

func (w *countedWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.failAt > 0 && w.writes >= w.failAt {
		return 0, errors.New("no space left on device")
	}
	return w.Buffer.Write(p)
}

// TestToolsWriteAtOnce: agent tools writes its text in writes of a
// buffer's size or more, in each of its forms, where tabwriter's cells and
// padding and a tool's lines were each a write, a system call to a
// terminal (34 for the table of 13 tools); and a write that fails is an
// exit status of 1 that says why, not a table cut short and a success.
// Without a worker pool to make (the isolation is none), it leaves the
// test process as it found it.
func TestToolsWriteAtOnce(t *testing.T) {
	const bufSize = 4096 // bufio's default
	noIsolation := func(k string) string {
		if k == "TOOLREG_ISOLATE" {
			return "none"
		}
		return ""
	}
	for _, args := range [][]string{{"tools"}, {"tools", "-v"}, {"tools", "calculator"}, {"tools", "-json"}, {"tools", "-search", "calculator"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out countedWriter
			var stderr strings.Builder
			c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &out, stderr: &stderr, getenv: noIsolation}
			if code := c.run(context.Background(), args); code != 0 {
				t.Fatalf("agent %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr.String())
			}
			if !strings.Contains(out.String(), "calculator") {
				t.Fatalf("agent %s wrote %q, want calculator listed", strings.Join(args, " "), out.String())
			}
			// A write larger than the buffer goes through whole.
			if most := (out.Len() + bufSize - 1) / bufSize; out.writes < 1 || out.writes > most {
				t.Errorf("agent %s: %d writes for %d bytes, want 1 to %d", strings.Join(args, " "), out.writes, out.Len(), most)
			}

			failing := countedWriter{failAt: 1}
			stderr.Reset()
			c = &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &failing, stderr: &stderr, getenv: noIsolation}
			if code := c.run(context.Background(), args); code != 1 || !strings.Contains(stderr.String(), "no space left on device") {
				t.Errorf("agent %s to a full disk: exit %d, stderr %q; want 1 and the write's error", strings.Join(args, " "), code, stderr.String())
			}
		})
	}
}
