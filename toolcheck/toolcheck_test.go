package toolcheck_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolreg/toolreg/toolcheck"
)

// TestAnalyzer: the public analyzer reports the description lint's
// warnings where internal/toolcheck's tests expect them.
func TestAnalyzer(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "internal", "toolcheck", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, toolcheck.Analyzer, "lint", "badsig", "good")
}
