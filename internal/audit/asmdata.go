package audit

import (
	"bytes"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Go assembly can give a package variable its value: a DATA directive
// fills the variable's symbol, which the linker then holds for the Go
// declaration, of the assembly's own package or of any other. A function
// variable filled so holds code that no Go code names, and a call
// through it has no callee in the call graph (probe asmdata). So the
// audit reads the DATA directives of every non-standard package's
// assembly, whatever their build constraints:
//
//   - a file-local symbol (name<>) is the assembly's own data;
//   - a symbol of the package's own that Go does not declare is too;
//   - a package variable of non-standard code so named is set by
//     assembly, and its use is Unsafe, as a //go:linkname variable's;
//   - anything else (a variable of the standard library, a symbol the
//     audit cannot resolve, such as one a macro spells) is reported as
//     the package's start-up code reaching Unsafe: the linker applies
//     it before any code runs.
//
// Honest assembly (hashing, compression, the x/sys trampolines) fills
// file-local tables, or symbols of its own that Go does not declare.

// dataDirective matches the DATA directive and the symbol after it, up
// to its offset, its (SB) or the end of a macro's line.
var dataDirective = regexp.MustCompile(`\bDATA\b[ \t]*([^+(,\s]*)`)

// maxAsmFile bounds an assembly file the audit reads; a larger one is
// reported unread.
const maxAsmFile = 16 << 20

// asmDatum is a DATA directive of a non-standard package's assembly that
// names a symbol outside its file.
type asmDatum struct {
	pkg string // the package whose assembly it is
	pos token.Position
	sym string // the symbol as written
	// unread is set when the file could not be read (not a regular
	// file, too large): what it holds is unknown.
	unread bool
}

// asmData returns the DATA directives of the Go assembly in dir (its .s
// files and the headers they may include) whose symbol is not
// file-local.
func asmData(pkg, dir string) []asmDatum {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // the go command listed the package; its loading reports this
	}
	var out []asmDatum
	for _, e := range entries {
		name := e.Name()
		if ext := filepath.Ext(name); e.IsDir() || (ext != ".s" && ext != ".h") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		file := filepath.Join(dir, name)
		if fi, err := os.Stat(file); err == nil && fi.IsDir() {
			continue // a symbolic link to a directory, which the go command skips
		}
		src, err := readAsm(file)
		if err != nil {
			out = append(out, asmDatum{pkg: pkg, pos: token.Position{Filename: file, Line: 1, Column: 1}, unread: true})
			continue
		}
		for i, line := range bytes.Split(stripComments(src), []byte("\n")) {
			for _, m := range dataDirective.FindAllSubmatchIndex(line, -1) {
				sym := string(line[m[2]:m[3]])
				if strings.HasSuffix(sym, "<>") {
					continue
				}
				out = append(out, asmDatum{pkg: pkg, pos: token.Position{Filename: file, Line: i + 1, Column: m[0] + 1}, sym: sym})
			}
		}
	}
	return out
}

// readAsm reads an assembly file: a regular file of at most maxAsmFile
// bytes (readRegular).
func readAsm(file string) ([]byte, error) { return readRegular(file, maxAsmFile) }

// stripComments blanks the comments of assembly source (// to the end of
// the line, /* to */), keeping its lines where they are.
func stripComments(src []byte) []byte {
	out := slices.Clone(src)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// resolveAsmData sorts the directives of data: the variables of
// non-standard code they set, with why, and the findings of those the
// audit cannot follow. byPath holds the program's packages, std the
// standard library's paths.
func resolveAsmData(data []asmDatum, byPath map[string]*types.Package, std map[string]bool) (map[*types.Var]string, []Finding) {
	vars := map[*types.Var]string{}
	var findings []Finding
	for _, d := range data {
		path, name, qualified := strings.Cut(d.sym, "·")
		if i := strings.LastIndex(d.sym, "·"); i >= 0 {
			path, name = d.sym[:i], d.sym[i+len("·"):]
		}
		path = strings.ReplaceAll(path, "∕", "/")
		if path == "" || path == `""` {
			path = d.pkg
		}
		p := byPath[path]
		if qualified && name != "" && p != nil && !std[path] {
			obj := p.Scope().Lookup(name)
			if v, ok := obj.(*types.Var); ok {
				if vars[v] == "" {
					vars[v] = fmt.Sprintf("variable %s.%s, which assembly gives its value (DATA, %s:%d)", path, name, filepath.Base(d.pos.Filename), d.pos.Line)
				}
				continue
			}
			if obj == nil && path == d.pkg {
				continue // the assembly's own symbol
			}
		}
		what := fmt.Sprintf("DATA %s", d.sym)
		switch {
		case d.unread:
			what = "an assembly file the audit cannot read"
		case d.sym == "":
			what = "a DATA directive whose symbol a macro gives"
		case std[path]:
			what = fmt.Sprintf("DATA %s, a variable of the standard library", d.sym)
		}
		findings = append(findings, Finding{Cap: tool.Unsafe, Pkg: d.pkg, Pos: d.pos, Steps: []Step{{Func: what, Pos: d.pos}},
			Why: "assembly that gives a symbol outside its own file and package a value, which the audit cannot follow"})
	}
	return vars, findings
}
