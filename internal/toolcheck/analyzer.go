package toolcheck

import (
	"go/ast"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzer reports the convention violations of a toolreg tool package:
// the same warnings toolgen prints, through go vet, golangci-lint or any
// other go/analysis driver. Packages without a *_tool.go file are not
// tool packages and are left alone.
//
// It runs per package and does not include toolgen's capability audit,
// which follows a tool's calls through the whole program and stays a
// toolgen pass.
var Analyzer = &analysis.Analyzer{
	Name: "toolcheck",
	Doc:  "check the toolreg tool convention: one tool per *_tool.go file, Definition a literal of constants, Execute(ctx, Args) (R, error), documented arguments JSON Schema can describe; and lint the descriptions the model reads (category \"description\")",
	URL:  "https://github.com/toolreg/toolreg#the-convention",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	var files []*ast.File
	tools := false
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") {
			for _, d := range TestToolNotes(pass.Fset, f) {
				pass.Report(analysis.Diagnostic{Pos: d.Pos, Category: "note", Message: "note: " + d.Message})
			}
			continue
		}
		files = append(files, f)
		tools = tools || IsToolFile(filepath.Base(name))
	}
	tools = tools || slices.ContainsFunc(pass.IgnoredFiles, func(n string) bool { return IsToolFile(filepath.Base(n)) })
	if !tools {
		return nil, nil
	}
	res := Check(&Package{Fset: pass.Fset, Files: files, Types: pass.Pkg, Info: pass.TypesInfo, Ignored: pass.IgnoredFiles})
	for _, d := range res.Diagnostics {
		msg := d.Message
		category := "convention"
		switch {
		case d.Note:
			msg, category = "note: "+msg, "note"
		case d.Lint:
			category = "description"
		}
		pass.Report(analysis.Diagnostic{Pos: d.Pos, Category: category, Message: msg})
	}
	return nil, nil
}
