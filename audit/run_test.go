package audit

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestDebugAnalyze(t *testing.T) {
	dir := os.Getenv("AUDIT_DIR")
	if dir == "" {
		t.Skip()
	}
	rep, err := Analyze(context.Background(), dir, strings.Split(os.Getenv("AUDIT_TOOLS"), ","))
	if err != nil {
		t.Fatal(err)
	}
	id := func(s string) string { return s }
	for name, r := range rep.Tools {
		t.Logf("%s: %s", name, r.Reaches)
		for _, f := range r.Findings {
			t.Logf("  %s: %s", f.Cap, f.Path(id, true))
		}
	}
	for _, f := range rep.Startup {
		t.Logf("start %s %s: %s", f.Pkg, f.Cap, f.Path(id, true))
	}
}
