package agentcli

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolreg/toolreg/tool"
)

// TestOutputProgress shows a tool's progress on the trace, redacted, and
// always its end; nothing with -q.
func TestOutputProgress(t *testing.T) {
	var stdout, stderr bytes.Buffer
	o := &output{stdout: &stdout, stderr: &stderr, redact: func(s string) string {
		return map[string]string{"key sk-1": "key [REDACTED]"}[s]
	}}
	ctx := tool.WithCall(context.Background(), tool.Call{ID: "c1", Tool: "fetch"})
	ctx = tool.WithProgress(ctx, o.progress)
	tool.Progress(ctx, 1, 3, "key sk-1")
	tool.Progress(ctx, 3, 3, "")
	want := "… fetch 1/3 key [REDACTED]\n… fetch 3/3\n"
	if diff := cmp.Diff(want, stderr.String()); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}
	stderr.Reset()
	o.quiet = true
	tool.Progress(ctx, 3, 3, "done")
	if stderr.Len() != 0 {
		t.Errorf("with -q: %q", stderr.String())
	}
}
