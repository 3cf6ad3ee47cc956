package toolcheck_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolreg/toolreg/internal/toolcheck"
)

// TestAnalyzerBounds checks the limits of a jsonschema tag against each
// other: equal limits are accepted, crossed ones are reported, by a wide
// margin, by one, and by one past the precision of a float64.
func TestAnalyzerBounds(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), toolcheck.Analyzer, "bounds")
}
