// Package toolcheck is toolreg's tool convention as a go/analysis
// analyzer: the warnings toolgen gives for a tool file that breaks the
// convention, reported by go vet (cmd/toolvet) or golangci-lint in a
// module of your own (see docs/writing-tools.md).
//
// It is the public face of internal/toolcheck, which also holds toolgen's
// model of a tool; that model is toolgen's own and not part of the API.
// The capability audit is not here: it follows a tool's calls through the
// whole program and stays a toolgen pass (toolgen -check).
package toolcheck

import (
	"golang.org/x/tools/go/analysis"

	"github.com/toolreg/toolreg/internal/toolcheck"
)

// Analyzer reports, at their positions, the tool files of a package that
// break the convention, with the warnings toolgen gives for them.
var Analyzer *analysis.Analyzer = toolcheck.Analyzer

// The description lint's bounds, in characters: every request sends every
// description, so a longer one is a warning.
const (
	MaxToolDescription  = toolcheck.MaxToolDescription
	MaxParamDescription = toolcheck.MaxParamDescription
)
