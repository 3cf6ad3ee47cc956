// Toolgen generates the static tool registry of a toolreg agent.
//
// It type-checks the tool package (./toolbox by default), checks the
// convention on every *_tool.go file, derives each tool's JSON Schema from
// its Go args type and doc comments, and writes zz_registry_gen.go: the
// table of tools, a strict decoder for each tool's arguments, and the
// OpenAI tools spec. Nothing is scanned or reflected at run time.
//
// Usage, from the directory of the package that holds the registry:
//
//	//go:generate go run github.com/toolreg/toolreg/cmd/toolgen [flags]
//
// Flags:
//
//	-dir DIR   the tool package directory (default "toolbox")
//	-o FILE    the output file (default "zz_registry_gen.go"); its package is
//	           the package of the other Go files in its directory
//	-check     write nothing; exit 1 if there is any warning or FILE is not
//	           what toolgen would write (the lint for CI)
//	-explain ID
//	           write nothing; print, for each capability the tool with this
//	           id reaches, a shortest call path through each call of its
//	           Execute that reaches it, down to the classified function
//
// A convention violation is a warning on stderr as path:line:col: message;
// that file's tool is left out, every other tool is generated, and toolgen
// exits 0 (1 with -check). A compile error in the tool package is reported
// and toolgen exits 1. Bad usage exits 2.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
