package toolcheck_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	internal "github.com/toolreg/toolreg/internal/toolcheck"
	"github.com/toolreg/toolreg/toolcheck"
)

// TestAnalyzer: the public analyzer reports the description lint's
// warnings where internal/toolcheck's tests expect them.
//
// With -short, when the public analyzer is internal/toolcheck's own
// value, the analysistest run here is left to the full run (CI's): that
// package's TestAnalyzer runs the same value on these packages and more,
// and this one would load and type-check the standard library from source
// again to say the same.
func TestAnalyzer(t *testing.T) {
	if testing.Short() && toolcheck.Analyzer == internal.Analyzer {
		t.Skip("internal/toolcheck's TestAnalyzer runs this very analyzer; the run through the public name is left to the full run")
	}
	dir, err := filepath.Abs(filepath.Join("..", "internal", "toolcheck", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, toolcheck.Analyzer, "lint", "badsig", "good")
}
