package audit

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolbox"
)

// The tests read what a tool of testdata declares from its source rather
// than by calling its Definition: the test binary then does not import
// the hundreds of packages of testdata, which an empty build cache would
// compile (and vet) for it.

// auditPkgPath is the import path of this package, under which testdata's
// packages are.
const auditPkgPath = "github.com/toolreg/toolreg/internal/audit/"

// declared returns what the Definition method of the type name, in the
// package in dir, declares (readDeclared), and fails the test when it
// cannot be read.
func declared(t *testing.T, dir, name string) tool.Capability {
	t.Helper()
	c, err := readDeclared(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readDeclared returns the capabilities the Definition method of the type
// name, in the package in dir, declares: the Capabilities field of the one
// tool.Definition literal its body returns, tool's capabilities joined
// with |, or none when the literal has no such field. Anything else is an
// error.
func readDeclared(dir, name string) (tool.Capability, error) {
	// The files the host's build has: those the audit reads.
	pkg, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return 0, fmt.Errorf("declared %s.%s: %w", dir, name, err)
	}
	fset := token.NewFileSet()
	var def *ast.FuncDecl
	var toolName string
	for _, file := range slices.Concat(pkg.GoFiles, pkg.CgoFiles) {
		f, err := parser.ParseFile(fset, filepath.Join(dir, file), nil, parser.SkipObjectResolution)
		if err != nil {
			return 0, fmt.Errorf("declared %s.%s: %w", dir, name, err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "Definition" || fn.Recv == nil || receiverName(fn) != name {
				continue
			}
			if def != nil {
				return 0, fmt.Errorf("declared %s.%s: two Definition methods", dir, name)
			}
			def, toolName = fn, importName(f, "github.com/toolreg/toolreg/tool")
		}
	}
	if def == nil || def.Body == nil || toolName == "" {
		return 0, fmt.Errorf("declared %s.%s: no Definition method in a file that imports package tool", dir, name)
	}
	// The body is one return of a literal, as the convention has it: a
	// value built otherwise could declare what the literal does not show.
	var lit *ast.CompositeLit
	if len(def.Body.List) == 1 {
		if ret, ok := def.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			lit, _ = ret.Results[0].(*ast.CompositeLit)
		}
	}
	if lit == nil || !isSelector(lit.Type, toolName, "Definition") {
		return 0, fmt.Errorf("%s: %s.Definition is not one return of a tool.Definition literal", fset.Position(def.Pos()), name)
	}
	var caps tool.Capability
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return 0, fmt.Errorf("%s: a tool.Definition literal without field names", fset.Position(elt.Pos()))
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Capabilities" {
			if caps, err = capabilitiesOf(fset, toolName, kv.Value); err != nil {
				return 0, err
			}
		}
	}
	return caps, nil
}

// capabilitiesOf evaluates e, tool's capabilities (named toolName in its
// file) joined with |.
func capabilitiesOf(fset *token.FileSet, toolName string, e ast.Expr) (tool.Capability, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return capabilitiesOf(fset, toolName, e.X)
	case *ast.BinaryExpr:
		if e.Op == token.OR {
			x, err := capabilitiesOf(fset, toolName, e.X)
			if err != nil {
				return 0, err
			}
			y, err := capabilitiesOf(fset, toolName, e.Y)
			return x | y, err
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && x.Name == toolName {
			if c, ok := tool.ParseCapabilities(snakeCase(e.Sel.Name)); ok && c != 0 {
				return c, nil
			}
		}
	}
	return 0, fmt.Errorf("%s: Capabilities: not tool's capabilities joined with |", fset.Position(e.Pos()))
}

// alias is the type an alias of testdata/all's all.go stands for.
type alias struct{ dir, typeName string }

// aliases returns the aliases of testdata/all's all.go by name.
func aliases(t *testing.T) map[string]alias {
	t.Helper()
	as, err := aliasesIn(".", filepath.Join("testdata", "all", "all.go"))
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// aliasesIn returns, by name, the type each alias of file stands for that
// is a type of a package under this package's import path, its directory
// under root (which holds this package's files).
func aliasesIn(root, file string) (map[string]alias, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	// The directory of each name an import binds. An import without a
	// name binds its package's name, which need not be its path's last
	// element.
	dirs := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !strings.HasPrefix(path, auditPkgPath) {
			continue
		}
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(path, auditPkgPath)))
		if imp.Name != nil {
			dirs[imp.Name.Name] = dir
			continue
		}
		pkg, err := build.Default.ImportDir(dir, 0)
		if err != nil {
			return nil, err
		}
		dirs[pkg.Name] = dir
	}
	as := map[string]alias{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			sel, ok := ts.Type.(*ast.SelectorExpr)
			if !ok || !ts.Assign.IsValid() {
				continue
			}
			if x, ok := sel.X.(*ast.Ident); ok && dirs[x.Name] != "" {
				as[ts.Name.Name] = alias{dirs[x.Name], sel.Sel.Name}
			}
		}
	}
	return as, nil
}

// receiverName is the name of fn's receiver's type, without a *.
func receiverName(fn *ast.FuncDecl) string {
	rt := fn.Recv.List[0].Type
	if star, ok := rt.(*ast.StarExpr); ok {
		rt = star.X
	}
	if id, ok := rt.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// importName is the name f refers to the package path by, or "".
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			return importedAs(imp, path)
		}
	}
	return ""
}

// importedAs is the name imp of path binds: its own, or the path's last
// element (the packages read here are named so).
func importedAs(imp *ast.ImportSpec, path string) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	return path[strings.LastIndex(path, "/")+1:]
}

// isSelector reports whether e is x.sel.
func isSelector(e ast.Expr, x, sel string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == x && s.Sel.Name == sel
}

// snakeCase is ReadFiles's read_files: the names ParseCapabilities reads.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestReadDeclared reads what this repository's tools declare, against
// their Definition, and refuses what is not a literal of capabilities.
func TestReadDeclared(t *testing.T) {
	t.Parallel()
	for name, d := range map[string]definer{
		"Weather": &toolbox.Weather{}, "WebSearch": &toolbox.WebSearch{}, "Now": toolbox.Now{},
		"PingURL": &toolbox.PingURL{}, "DiskUsage": toolbox.DiskUsage{},
	} {
		got, err := readDeclared(filepath.Join("..", "..", "toolbox"), name)
		if want := d.Definition().Capabilities; err != nil || got != want {
			t.Errorf("toolbox.%s: read %s, %v; its Definition declares %s", name, got, err, want)
		}
	}
	// A file the build leaves out does not declare; a method promoted
	// from an embedded type is not read.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"p.go":   "package p\n\nimport \"github.com/toolreg/toolreg/tool\"\n\ntype base struct{}\n\nfunc (base) Definition() tool.Definition { return tool.Definition{Capabilities: tool.Exec} }\n\ntype T struct{ base }\n",
		"old.go": "//go:build ignore\n\npackage p\n\nimport \"github.com/toolreg/toolreg/tool\"\n\nfunc (T) Definition() tool.Definition { return tool.Definition{Capabilities: tool.Env} }\n",
	})
	if got, err := readDeclared(dir, "T"); err == nil || !strings.Contains(err.Error(), "no Definition method") {
		t.Errorf("a Definition in an ignored file: read %s, %v; want no Definition method", got, err)
	}
	if _, err := readDeclared(filepath.Join(t.TempDir(), "none"), "T"); err == nil {
		t.Errorf("a directory that is not there: no error")
	}
	// An import without a name binds the package's name: here x's
	// package is y, and x is real's. V is a type, not an alias.
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"testdata/honest/x/x.go":       "package y\n\ntype Tool struct{}\n",
		"testdata/honest/real/real.go": "package real\n\ntype Tool struct{}\n",
		"all.go": "package all\n\nimport (\n\tx \"" + auditPkgPath + "testdata/honest/real\"\n\t\"" + auditPkgPath + "testdata/honest/x\"\n)\n\n" +
			"type (\n\tZ = x.Tool\n\tW = y.Tool\n\tV x.Tool\n)\n",
	})
	as, err := aliasesIn(root, filepath.Join(root, "all.go"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]alias{
		"Z": {filepath.Join(root, "testdata", "honest", "real"), "Tool"},
		"W": {filepath.Join(root, "testdata", "honest", "x"), "Tool"},
	}
	if diff := cmp.Diff(want, as, cmp.AllowUnexported(alias{})); diff != "" {
		t.Errorf("aliases (-want +got):\n%s", diff)
	}

	const head = "package p\n\nimport tl \"github.com/toolreg/toolreg/tool\"\n\ntype T struct{}\n\n"
	for _, tc := range []struct {
		src  string
		want tool.Capability
		err  string // in the error; "" for none
	}{
		{"func (T) Definition() tl.Definition { return tl.Definition{ID: \"t\"} }", 0, ""},
		{"func (*T) Definition() tl.Definition {\n\treturn tl.Definition{ID: \"t\", Capabilities: (tl.Env | tl.ReadFiles) | tl.Exec}\n}", tool.Env | tool.ReadFiles | tool.Exec, ""},
		{"var caps = tl.Env\n\nfunc (T) Definition() tl.Definition { return tl.Definition{Capabilities: caps} }", 0, "p.go:9:74: Capabilities: not tool's capabilities"},
		{"func (T) Definition() tl.Definition { return tl.Definition{Capabilities: tl.Env + tl.Exec} }", 0, "not tool's capabilities"},
		{"func (T) Definition() tl.Definition { return tl.Definition{Capabilities: tl.Everything} }", 0, "not tool's capabilities"},
		{"func (T) Definition() tl.Definition { return tl.Definition{Capabilities: tl.Capability(1)} }", 0, "not tool's capabilities"},
		{"func (T) Definition() tl.Definition {\n\tif true {\n\t\treturn tl.Definition{}\n\t}\n\treturn tl.Definition{Capabilities: tl.Exec}\n}", 0, "p.go:7:1: T.Definition is not one return of a tool.Definition literal"},
		{"func (T) Definition() tl.Definition { d := tl.Definition{}; d.Capabilities = tl.Exec; return d }", 0, "not one return"},
		{"func (T) Definition() tl.Definition { return tl.Definition{\"t\", \"\", \"\", 0, tl.Exec} }", 0, "without field names"},
		{"func (T) Define() tl.Definition { return tl.Definition{} }", 0, "no Definition method"},
		{"func (T) Definition() tl.Definition { return tl.Definition{} }\n\nfunc (*T) Definition() tl.Definition { return tl.Definition{} }", 0, "two Definition methods"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(head+tc.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readDeclared(dir, "T")
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s\nread %s, %v; want %s", tc.src, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s\nread %s, %v; want an error with %q", tc.src, got, err, tc.err)
		}
	}
}

// writeFiles writes files (slash-separated paths under dir to contents).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
