package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"iter"
	"maps"
	"os"
	pathpkg "path"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/internal/audit"
	"github.com/toolreg/toolreg/internal/toolcheck"
)

// run is toolgen's command line; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "toolbox", "the tool package `directory`")
	out := fs.String("o", "zz_registry_gen.go", "the output `file`")
	check := fs.Bool("check", false, "write nothing; fail if there is a warning or the output file is stale")
	explain := fs.String("explain", "", "write nothing; print every call path to each capability the tool with this `id` reaches")
	platformList := fs.String("platforms", "", "the GOOS/GOARCH `list` every tool must build on, comma-separated (default: the supported platforms)")
	trustList := fs.String("trust-c", "", "the import paths of the packages whose C or object code you reviewed, comma-separated: a note for them, not a warning")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the run to `file`")
	fs.Usage = func() { fmt.Fprint(stderr, manual) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	platforms, err := parsePlatforms(*platformList)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: -platforms: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "toolgen: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return 1
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: -cpuprofile: %v\n", err)
			return 1
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "toolgen: -cpuprofile: %v\n", err)
			return 1
		}
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				fmt.Fprintf(stderr, "toolgen: -cpuprofile: %v\n", err)
			}
		}()
	}
	res, err := generate(wd, *dir, *out, platforms)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return 1
	}
	if *explain != "" {
		paths, ok := res.Explain[*explain]
		if !ok {
			fmt.Fprintf(stderr, "toolgen: no tool with id %q was audited\n", *explain)
			return 1
		}
		if len(paths) == 0 {
			fmt.Fprintf(stdout, "tool %s reaches no capability\n", *explain)
		}
		for _, p := range paths {
			fmt.Fprintln(stdout, p)
		}
		return 0
	}
	res.Warnings = trustC(res.Warnings, splitList(*trustList))
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, w)
	}
	if *check {
		old, err := audit.ReadRegular(*out)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "toolgen: %v\n", err)
			return 1
		case !bytes.Equal(old, res.Source):
			fmt.Fprintf(stderr, "toolgen: %s is stale: run go generate ./...\n", *out)
			return 1
		case res.warnings() > 0:
			fmt.Fprintf(stderr, "toolgen: %d warning(s)\n", res.warnings())
			return 1
		}
		return 0
	}
	if old, err := audit.ReadRegular(*out); err == nil && bytes.Equal(old, res.Source) {
		return 0
	}
	if err := os.WriteFile(*out, res.Source, 0o644); err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return 1
	}
	return 0
}

// result is what generate computes: the output file's contents and the
// warnings. Writing it is the caller's business, so that -check is a
// comparison and not another code path.
type result struct {
	Source   []byte
	Warnings []diagnostic // sorted by position; notes included
	Tools    []*toolInfo
	Explain  map[string][]string
}

// warnings counts the diagnostics that are not notes.
func (r *result) warnings() int {
	return (&toolPackage{Warnings: r.Warnings}).warnings()
}

// splitList returns the items of a comma-separated list, white space
// trimmed, empty ones left out.
func splitList(list string) []string {
	var out []string
	for s := range strings.SplitSeq(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// parsePlatforms reads a -platforms list; "" means the supported ones.
func parsePlatforms(list string) ([]toolcheck.Platform, error) {
	if list == "" {
		return toolcheck.SupportedPlatforms(), nil
	}
	var out []toolcheck.Platform
	for _, s := range strings.Split(list, ",") {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(s), "/")
		if !ok || goos == "" || goarch == "" {
			return nil, fmt.Errorf("%q is not GOOS/GOARCH", s)
		}
		out = append(out, toolcheck.Platform{GOOS: goos, GOARCH: goarch})
	}
	return out, nil
}

// generate loads the tool package in dir and renders the registry file
// out; both are relative to base, an absolute directory, and so are the
// positions in warnings.
func generate(base, dir, out string, platforms []toolcheck.Platform) (*result, error) {
	if platforms == nil {
		platforms = toolcheck.SupportedPlatforms()
	}
	tp, err := load(filepath.Join(base, dir), base, platforms)
	if err != nil {
		return nil, err
	}
	outDir := filepath.Join(base, filepath.Dir(out))
	name, err := packageName(outDir, filepath.Base(out))
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(tp.ModuleDir, outDir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("output directory %s is not in module %s (%s)", outDir, tp.ModulePath, tp.ModuleDir)
	}
	path := tp.ModulePath
	if rel != "." {
		path += "/" + filepath.ToSlash(rel)
	}
	importable(tp, path, base)
	if err := addSkills(tp, base, filepath.Join(filepath.Dir(out), skillsDir)); err != nil {
		return nil, err
	}
	src, err := emit(path, name, tp)
	if err != nil {
		return nil, err
	}
	if err := clash(outDir, filepath.Base(out), base, src); err != nil {
		return nil, err
	}
	return &result{Source: src, Warnings: tp.Warnings, Tools: tp.Tools, Explain: tp.Explain}, nil
}

// packageName returns the package name declared by the Go files of dir,
// other than skip and tests.
func packageName(dir, skip string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("output directory: %w", err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || isDir(filepath.Join(dir, n)) || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || n == skip {
			continue
		}
		if !isRegular(filepath.Join(dir, n)) {
			return "", fmt.Errorf("output package: %s is not a regular file", filepath.Join(dir, n))
		}
		f, err := parseFile(token.NewFileSet(), filepath.Join(dir, n), parser.PackageClauseOnly)
		if err != nil {
			return "", fmt.Errorf("output package: %w", err)
		}
		names[f.Name.Name] = true
	}
	list := slices.Sorted(maps.Keys(names))
	if len(list) != 1 {
		return "", fmt.Errorf("output directory %s: want the Go files of one package beside the output file (for example generate.go), found packages %q", dir, list)
	}
	return list[0], nil
}

// clash fails when another Go file of the registry package in dir
// declares a name that src, the generated file out, declares too, or
// imports a package by: Go allows no name in both the package block and a
// file block, so the file written would not build (var registry =
// Toolbox() beside it, in package main), or its tests would not (such a
// var in main_test.go). Every file is read, whatever its build
// constraints; positions are relative to base.
func clash(dir, out, base string, src []byte) error {
	gen, err := parser.ParseFile(token.NewFileSet(), out, src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("internal error: the generated %s does not parse (please report it): %w", out, err)
	}
	ours := map[string]string{} // the generated file's names, and why
	for _, imp := range gen.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := pathpkg.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		ours[name] = fmt.Sprintf(" (the name of an import of package %s)", p)
	}
	for name := range topLevel(gen) {
		ours[name] = ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || n == out || !isRegular(filepath.Join(dir, n)) {
			continue
		}
		f, err := parseFile(fset, filepath.Join(dir, n), parser.SkipObjectResolution)
		if err != nil {
			if strings.HasSuffix(n, "_test.go") {
				continue // go test reports it
			}
			return fmt.Errorf("output package: %w", err)
		}
		if f.Name.Name != gen.Name.Name {
			continue // an external test package, which has its own scope
		}
		for name, id := range topLevel(f) {
			if why, ok := ours[name]; ok {
				at := fset.Position(id.Pos())
				at.Filename = relPath(base, at.Filename)
				return fmt.Errorf("output package: %s: %s is declared here and by the generated %s%s: rename it", at, name, out, why)
			}
		}
	}
	return nil
}

// topLevel returns the names f declares in the package block, in the
// order of the file: its functions (not methods), types, variables and
// constants; not _ and init.
func topLevel(f *ast.File) iter.Seq2[string, *ast.Ident] {
	return func(yield func(string, *ast.Ident) bool) {
		var ids []*ast.Ident
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					ids = append(ids, d.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						ids = append(ids, sp.Name)
					case *ast.ValueSpec:
						ids = append(ids, sp.Names...)
					}
				}
			}
		}
		for _, id := range ids {
			if id.Name == "_" || id.Name == "init" {
				continue
			}
			if !yield(id.Name, id) {
				return
			}
		}
	}
}

// importable leaves out, with a warning, every tool whose types the
// registry package outPath cannot import: types of an internal package
// that is not its own. Warnings are positioned relative to base, as the
// loader positions every other.
func importable(tp *toolPackage, outPath, base string) {
	kept := tp.Tools[:0]
	for _, t := range tp.Tools {
		var bad string
		for _, p := range typePaths(t) {
			if !canImport(outPath, p) {
				bad = p
				break
			}
		}
		if bad == "" {
			kept = append(kept, t)
			continue
		}
		// t.File is relative to the module; a warning's position, as
		// every other, to base.
		file := filepath.ToSlash(relPath(base, filepath.Join(tp.ModuleDir, filepath.FromSlash(t.File))))
		tp.Warnings = append(tp.Warnings, diagnostic{Pos: token.Position{Filename: file, Line: 1, Column: 1},
			Msg: fmt.Sprintf("tool %s uses types of %s, an internal package the registry package %s cannot import: move the types out of it", t.TypeName, bad, outPath)})
	}
	tp.Tools = kept
	tp.Warnings = dedup(tp.Warnings)
}

// typePaths lists the packages whose types the generated code of t names.
func typePaths(t *toolInfo) []string {
	var out []string
	var walk func(*typ)
	walk = func(x *typ) {
		if x == nil {
			return
		}
		if x.Path != "" && !slices.Contains(out, x.Path) {
			out = append(out, x.Path)
		}
		walk(x.Elem)
		walk(x.Key)
		for _, f := range x.Fields {
			walk(f.Type)
		}
	}
	walk(t.Args)
	walk(t.Result)
	return out
}

// canImport applies the go command's rule for internal packages.
func canImport(from, path string) bool {
	i := strings.LastIndex(path, "/internal/")
	switch {
	case i >= 0:
	case strings.HasSuffix(path, "/internal"):
		i = len(path) - len("/internal")
	case strings.HasPrefix(path, "internal/") || path == "internal":
		return false // standard library internals
	default:
		return true
	}
	parent := path[:i]
	return from == parent || strings.HasPrefix(from, parent+"/")
}
