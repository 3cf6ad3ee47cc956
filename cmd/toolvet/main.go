// Toolvet runs the toolreg tool convention checks (package toolcheck)
// under go vet:
//
//	go install github.com/toolreg/toolreg/cmd/toolvet
//	go vet -vettool=$(which toolvet) ./toolbox
//
// It reports the same warnings as toolgen, as path:line:col: message, and
// go vet exits non-zero when there is one. toolgen's capability audit,
// which follows calls through the whole program, is not part of it: run
// toolgen -check for that.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/toolreg/toolreg/toolcheck"
)

func main() {
	unitchecker.Main(toolcheck.Analyzer)
}
