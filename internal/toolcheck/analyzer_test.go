package toolcheck_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolreg/toolreg/internal/toolcheck"
)

// TestAnalyzer runs the analyzer on one package per row of the warnings
// table of docs/writing-tools.md, and on the newer checks: each offending line carries a
// want comment, and a missing or an unexpected diagnostic fails the test.
// Package good has nothing to report. Package bounds checks the limits of
// a jsonschema tag against each other: equal limits are accepted, crossed
// ones are reported, by a wide margin, by one, and by one past the
// precision of a float64. (One analysistest.Run for all of them: each
// loads and type-checks the standard library from source.)
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), toolcheck.Analyzer,
		// The warnings table of docs/writing-tools.md, row by row.
		"notype", "twotypes", "nodef", "badsig", "defvar", "dup", "badname",
		"nodesc", "wrongfile", "nodoc", "badtype", "badtag", "platform",
		// Results, unexported types, promoted methods, near misses.
		"result", "unexported", "promoted", "nearmiss", "helperargs",
		// The description lint: vague and good descriptions, in English and Chinese.
		"lint",
		// The silent traps of issue 31.
		"traps",
		// The limits of a jsonschema tag against each other.
		"bounds",
		"good")
}
