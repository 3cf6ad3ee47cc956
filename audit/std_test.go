package audit

import (
	"context"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite stdsummary.txt and the golden files")

// TestStdSummary rebuilds the standard-library summary and compares it
// with the one that ships; -update rewrites it.
func TestStdSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole standard library")
	}
	got, err := BuildStdSummary(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("stdsummary.txt", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != stdSummaryText {
		if !strings.HasPrefix(stdSummaryText, "# "+platform()+"\n") {
			t.Skipf("stdsummary.txt is for another release or platform than %s", platform())
		}
		t.Errorf("stdsummary.txt is stale: run go test ./audit -run TestStdSummary -update\n%s",
			cmp.Diff(strings.Split(stdSummaryText, "\n"), strings.Split(got, "\n")))
	}
}

// TestStdClassified walks the standard library's graph and fails for
// every function without a Go body, system call number or other boundary
// that some function reaches and the table leaves unclassified: fail
// closed makes them Unsafe, which a new Go release must not do silently.
func TestStdClassified(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole standard library")
	}
	g, err := stdGraph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, n := range g.list {
		if !n.boundary || len(n.in) == 0 {
			continue
		}
		if strings.HasPrefix(n.why, "no Go body") || strings.HasPrefix(n.why, "unclassified") {
			bad = append(bad, n.key+" ("+n.why+")")
		}
	}
	slices.Sort(bad)
	if len(bad) > 0 {
		t.Errorf("%d boundaries of the standard library are not classified; add them to classify.go:\n\t%s", len(bad), strings.Join(bad, "\n\t"))
	}
}
