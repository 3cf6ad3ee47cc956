package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/toolreg/toolreg/internal/audit"
	"github.com/toolreg/toolreg/internal/toolcheck"
)

// toolPkgPath is the import path of the package tool authors use.
const toolPkgPath = toolcheck.ToolPkgPath

// diagnostic is a convention violation, or a note, at a position.
type diagnostic struct {
	Pos  token.Position
	Msg  string
	Note bool
	// Lint marks a warning of the description lint: a warning, but the
	// tool is still generated.
	Lint bool
	// CPackage is, for a warning about C or object code, the import path
	// of the package that holds it (see trustC).
	CPackage string
}

func (d diagnostic) String() string {
	note := ""
	if d.Note {
		note = "note: "
	}
	if d.Pos.Filename == "" { // about the command line
		return "toolgen: " + note + d.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s%s", d.Pos.Filename, d.Pos.Line, d.Pos.Column, note, d.Msg)
}

// toolPackage is what the checks found in the tool package.
type toolPackage struct {
	Path       string // import path of the tool package
	ModulePath string
	ModuleDir  string
	Tools      []*toolInfo // sorted by name
	Warnings   []diagnostic
	Explain    map[string][]string // by tool id: every capability's call paths
	Skills     *skillTable         // nil without a skills directory
}

// warnings counts the diagnostics that are not notes.
func (tp *toolPackage) warnings() int {
	n := 0
	for _, w := range tp.Warnings {
		if !w.Note {
			n++
		}
	}
	return n
}

// compileError reports that the tool package does not build.
type compileError struct {
	errs []string
}

func (e *compileError) Error() string {
	return "the tool package does not compile:\n\t" + strings.Join(e.errs, "\n\t")
}

// compileErrors collects the errors of the tool package under each build
// configuration, each message once, labelled with the platforms it
// happens on unless it happens on all of them.
type compileErrors struct {
	order []string
	on    map[string][]string
}

// add records errs, the errors of a package that does not build on
// platforms, the parse and type errors (which have positions) in place of
// the go command's summary of them.
func (ce *compileErrors) add(errs []packages.Error, base string, platforms []toolcheck.Platform) {
	if ce.on == nil {
		ce.on = map[string][]string{}
	}
	precise := slices.ContainsFunc(errs, func(e packages.Error) bool { return e.Kind != packages.ListError })
	for _, e := range errs {
		if precise && e.Kind == packages.ListError {
			continue
		}
		msg := e.Msg
		if e.Pos != "" {
			msg = relPath(base, e.Pos) + ": " + msg
		}
		if _, ok := ce.on[msg]; !ok {
			ce.order = append(ce.order, msg)
		}
		for _, p := range platforms {
			if !slices.Contains(ce.on[msg], p.String()) {
				ce.on[msg] = append(ce.on[msg], p.String())
			}
		}
	}
}

// err returns the compile error for the platforms, or nil. When the
// package builds on some of them, it ends with a hint naming those and
// -platforms: a dependency that needs cgo (read for other platforms with
// CGO_ENABLED=0) or build constraints can keep a tool package from
// building on some platforms, and toolgen judges a package on all of
// them, so that the registry is the same on every host.
func (ce *compileErrors) err(platforms []toolcheck.Platform) error {
	if len(ce.order) == 0 {
		return nil
	}
	out := &compileError{}
	failing := map[string]bool{}
	for _, msg := range ce.order {
		for _, p := range ce.on[msg] {
			failing[p] = true
		}
		if len(ce.on[msg]) < len(platforms) {
			msg += " (on " + strings.Join(ce.on[msg], ", ") + ")"
		}
		out.errs = append(out.errs, msg)
	}
	var builds []string
	for _, p := range platforms {
		if !failing[p.String()] {
			builds = append(builds, p.String())
		}
	}
	if len(builds) > 0 {
		out.errs = append(out.errs, fmt.Sprintf("hint: the tool package builds on %s only; every tool must build on each platform toolgen judges it for: "+
			"give a dependency that needs cgo a file for builds without it (toolgen reads other platforms than the host's with CGO_ENABLED=0), "+
			"or choose the platforms with -platforms %s in the //go:generate line", strings.Join(builds, ", "), strings.Join(builds, ",")))
	}
	return out
}

// config is one build configuration of the tool package: the platforms
// that compile the same files.
type config struct {
	platforms []toolcheck.Platform
	files     []string // absolute
	ignored   []string // absolute
	load      toolcheck.Platform
}

// load type-checks the package in dir for every platform and checks its
// tool files. Positions in warnings are relative to base when they lie
// under it. The result depends on the platforms, never on the host: a
// tool is generated only when it passes the checks on all of them, and
// what it reaches is the union of what the audit finds on each.
func load(dir, base string, platforms []toolcheck.Platform) (*toolPackage, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("tool package directory %s does not exist (in %s): run toolgen from the directory of the package that holds the registry, or give -dir", relPath(base, dir), base)
		}
		if err == nil {
			err = fmt.Errorf("not a directory")
		}
		return nil, fmt.Errorf("tool package directory %s: %w", relPath(base, dir), err)
	}
	// Before the go command reads them: it waits forever on a fifo.
	if _, err := toolFiles(dir); err != nil {
		return nil, err
	}
	// One load for every build configuration, which the convention
	// checks and the capability audit share.
	var auditPlatforms []audit.Platform
	for _, p := range platforms {
		auditPlatforms = append(auditPlatforms, audit.Platform{GOOS: p.GOOS, GOARCH: p.GOARCH})
	}
	progs, err := audit.Load(context.Background(), dir, auditPlatforms)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	path, name, mod, listErrs := progs.Package()
	if mod == nil {
		if len(listErrs) > 0 {
			var ce compileErrors
			ce.add(packageErrors(listErrs), base, platforms)
			return nil, ce.err(platforms)
		}
		return nil, fmt.Errorf("load %s: package %s is not in a module", dir, path)
	}
	pkg := &packages.Package{ID: path, Name: name, PkgPath: path,
		Module: &packages.Module{Path: mod.Path, Dir: mod.Dir, GoVersion: mod.GoVersion, Main: mod.Main}}
	configs, err := configurations(dir, platforms)
	if err != nil {
		return nil, err
	}
	type outcome struct {
		pkg *packages.Package
		err error
	}
	outs := make([]outcome, len(configs))
	var wg sync.WaitGroup
	for i, cf := range configs {
		wg.Go(func() {
			p, err := loadConfig(dir, pkg, cf, progs)
			outs[i] = outcome{p, err}
		})
	}
	wg.Wait()
	var ce compileErrors
	for i, o := range outs {
		if o.err != nil {
			return nil, o.err
		}
		if len(o.pkg.Errors) > 0 {
			ce.add(o.pkg.Errors, base, configs[i].platforms)
		}
	}
	if err := ce.err(platforms); err != nil {
		return nil, err
	}
	out := &toolPackage{Path: pkg.PkgPath, ModulePath: pkg.Module.Path, ModuleDir: pkg.Module.Dir, Explain: map[string][]string{}}
	// The configurations are checked and audited side by side, each into
	// a toolPackage of its own, and their findings joined in order.
	type checked struct {
		tp    *toolPackage
		tools []*toolInfo
		err   error
	}
	done := make([]checked, len(outs))
	for i, o := range outs {
		wg.Go(func() {
			tp := &toolPackage{Explain: map[string][]string{}}
			tools, err := checkConfig(o.pkg, dir, configs[i], base, platforms, progs, tp)
			done[i] = checked{tp, tools, err}
		})
	}
	wg.Wait()
	var perConfig [][]*toolInfo
	on := map[string][]string{} // the platforms of each warning
	for i, d := range done {
		if d.err != nil {
			return nil, d.err
		}
		for _, w := range d.tp.Warnings {
			s := w.String()
			if on[s] == nil {
				out.Warnings = append(out.Warnings, w)
			}
			for _, p := range configs[i].platforms {
				if !slices.Contains(on[s], p.String()) { // a configuration may repeat a warning
					on[s] = append(on[s], p.String())
				}
			}
		}
		for _, id := range slices.Sorted(maps.Keys(d.tp.Explain)) {
			for _, p := range d.tp.Explain[id] { // the union over the configurations
				if !slices.Contains(out.Explain[id], p) {
					out.Explain[id] = append(out.Explain[id], p)
				}
			}
			if out.Explain[id] == nil {
				out.Explain[id] = []string{}
			}
		}
		perConfig = append(perConfig, d.tools)
	}
	// A warning of some platforms only says which, or a reader on another
	// finds nothing wrong at its position.
	for i, w := range out.Warnings {
		if p := on[w.String()]; len(p) < len(platforms) {
			out.Warnings[i].Msg += " (on " + strings.Join(p, ", ") + ")"
		}
	}
	merge(out, perConfig, configs, base)
	out.Warnings = append(out.Warnings, foreignCode(progs.PackageDirs(), base)...)
	out.Warnings = append(out.Warnings, testToolNotes(dir, base)...)
	for _, t := range out.Tools {
		t.File = filepath.ToSlash(relPath(out.ModuleDir, t.File))
	}
	out.Warnings = dedup(out.Warnings)
	return out, nil
}

// testToolNotes notes the tools declared in the *_tool_test.go files of
// dir, which are never registered (toolcheck.TestToolNotes), and warns
// about the //go:generate lines of its test files, which go generate
// runs and go build, so the checks of the package, leave out
// (toolcheck.GenerateWarnings). A file that does not parse is left to go
// test to report.
func testToolNotes(dir, base string) []diagnostic {
	names, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	var out []diagnostic
	for _, name := range names {
		if !isRegular(name) {
			continue // go test reports it
		}
		fset := token.NewFileSet()
		f, err := parseFile(fset, name, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range append(toolcheck.TestToolNotes(fset, f), toolcheck.GenerateWarnings(f)...) {
			p := fset.Position(d.Pos)
			p.Filename = relPath(base, p.Filename)
			out = append(out, diagnostic{Pos: p, Msg: d.Message, Note: d.Note})
		}
	}
	return out
}

// checkConfig runs the convention checks and the capability audit on one
// build configuration of the tool package in dir, adding their warnings
// to out, and returns the tools that pass. The audit (one per
// configuration, on the configuration's load platform) covers the tools
// and the start-up code; it fails only when it cannot be run.
func checkConfig(pkg *packages.Package, dir string, cf config, base string, platforms []toolcheck.Platform, progs *audit.Programs, out *toolPackage) ([]*toolInfo, error) {
	res := toolcheck.Check(&toolcheck.Package{
		Fset: pkg.Fset, Files: pkg.Syntax, Types: pkg.Types, Info: pkg.TypesInfo,
		Ignored: cf.ignored, Platforms: platforms,
	})
	for _, d := range res.Diagnostics {
		p := pkg.Fset.Position(d.Pos)
		p.Filename = relPath(base, p.Filename)
		out.Warnings = append(out.Warnings, diagnostic{Pos: p, Msg: d.Message, Note: d.Note, Lint: d.Lint})
	}
	c := &checker{pkg: pkg, dir: dir, platform: cf.load, platforms: cf.platforms, base: base, progs: progs, out: out}
	for _, f := range res.Tools {
		c.tools = append(c.tools, f.Tool)
	}
	var tools []*toolInfo
	for _, f := range res.Tools {
		if c.auditTool(f.Tool, f.Execute) {
			tools = append(tools, f.Tool)
		}
	}
	if err := c.checkStartup(); err != nil {
		return nil, err
	}
	return tools, nil
}

// checker carries one build configuration of the tool package through the
// capability audit (capability.go).
type checker struct {
	pkg      *packages.Package
	dir      string             // the tool package's directory
	platform toolcheck.Platform // the platform the checks load the package for
	// platforms are the configuration's, which the audit covers.
	platforms []toolcheck.Platform
	base      string
	out       *toolPackage
	tools     []*toolInfo     // the tools that pass the convention checks
	progs     *audit.Programs // the package loaded in every configuration
	caps      *auditState     // the capability audit; see runAudit
	// bad is set when the tool being audited has a warning.
	bad bool
}

func (c *checker) warn(pos token.Pos, format string, args ...any) {
	p := c.pkg.Fset.Position(pos)
	p.Filename = relPath(c.base, p.Filename)
	c.out.Warnings = append(c.out.Warnings, diagnostic{Pos: p, Msg: fmt.Sprintf(format, args...)})
	c.bad = true
}

// auditTool runs the capability audit on a tool that passed the
// convention checks and reports whether it passes the audit too. A tool
// left out by the audit gets a warning in its own file.
func (c *checker) auditTool(t *toolInfo, exe *types.Func) bool {
	c.bad = false
	start := len(c.out.Warnings)
	c.checkCapabilities(t, exe) // the capability audit
	if !c.bad {
		return true
	}
	own := c.pkg.Fset.Position(t.Pos)
	own.Filename = relPath(c.base, own.Filename)
	var at []string
	for _, w := range c.out.Warnings[start:] {
		if w.Pos.Filename == own.Filename {
			return false
		}
		at = append(at, fmt.Sprintf("%s:%d:%d", filepath.Base(w.Pos.Filename), w.Pos.Line, w.Pos.Column))
	}
	c.out.Warnings = append(c.out.Warnings, diagnostic{Pos: own,
		Msg: fmt.Sprintf("the tool in %s is left out because of the warnings at %s", filepath.Base(own.Filename), strings.Join(at, ", "))})
	return false
}

// merge keeps the tools that pass on every configuration with the same
// model, their Reaches the union over the configurations, sorted by name.
func merge(out *toolPackage, perConfig [][]*toolInfo, configs []config, base string) {
	type key struct{ file, typeName string }
	byKey := map[key][]*toolInfo{}
	for _, tools := range perConfig {
		for _, t := range tools {
			k := key{t.File, t.TypeName}
			byKey[k] = append(byKey[k], t)
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(byKey), func(a, b key) int { return cmp.Compare(a.file, b.file) }) {
		ts := byKey[k]
		first := ts[0]
		var missing []string
		if len(ts) < len(configs) {
			for i, tools := range perConfig {
				if !slices.ContainsFunc(tools, func(t *toolInfo) bool { return t.File == k.file && t.TypeName == k.typeName }) {
					for _, p := range configs[i].platforms {
						missing = append(missing, p.String())
					}
				}
			}
		}
		same := true
		reaches := uint64(0)
		for _, t := range ts {
			reaches |= t.Reaches
			a, b := *first, *t
			a.Reaches, b.Reaches, a.Pos, b.Pos = 0, 0, 0, 0
			same = same && reflect.DeepEqual(a, b)
		}
		pos := token.Position{Filename: relPath(base, k.file), Line: 1, Column: 1}
		switch {
		case len(missing) > 0:
			out.Warnings = append(out.Warnings, diagnostic{Pos: pos,
				Msg: fmt.Sprintf("tool %s is left out: it does not pass the checks on %s (see the warnings there)", k.typeName, strings.Join(missing, ", "))})
		case !same:
			out.Warnings = append(out.Warnings, diagnostic{Pos: pos,
				Msg: fmt.Sprintf("tool %s differs from one platform to another: its definition, arguments and result must not depend on build constraints", k.typeName)})
		default:
			first.Reaches = reaches
			out.Tools = append(out.Tools, first)
		}
	}
	slices.SortFunc(out.Tools, func(a, b *toolInfo) int { return cmp.Compare(a.Name, b.Name) })
}

// dedup sorts warnings by position and drops repeats.
func dedup(ws []diagnostic) []diagnostic {
	slices.SortFunc(ws, func(a, b diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Msg, b.Msg))
	})
	return slices.CompactFunc(ws, func(a, b diagnostic) bool { return a.String() == b.String() })
}

// configurations groups platforms by the Go files of dir they compile,
// judged by each platform's build context and not the host's.
func configurations(dir string, platforms []toolcheck.Platform) ([]config, error) {
	names, err := toolFiles(dir)
	if err != nil {
		return nil, err
	}
	// Each file is read once, not once per platform; and read through
	// once. Only its build constraints and its name can exclude a file
	// that reads without error, so a file without any is matched, once it
	// has been read, with a header of nothing.
	type source struct {
		src []byte
		// constrained is set when the file may hold a build constraint.
		constrained bool
		// read is set once MatchFile read the file without error.
		read bool
	}
	src := map[string]*source{}
	for _, n := range names {
		b, err := audit.ReadRegular(filepath.Join(dir, n))
		if err != nil {
			return nil, fmt.Errorf("tool package: %w", err)
		}
		src[filepath.Join(dir, n)] = &source{src: b,
			constrained: bytes.Contains(b, []byte("go:build")) || bytes.Contains(b, []byte("+build"))}
	}
	var configs []config
	for _, p := range platforms {
		ctx := p.Context()
		var opened *source
		ctx.OpenFile = func(path string) (io.ReadCloser, error) {
			s, ok := src[path]
			switch {
			case !ok:
				return os.Open(path)
			case s.read && !s.constrained:
				return io.NopCloser(strings.NewReader("package p\n")), nil
			}
			opened = s
			return io.NopCloser(bytes.NewReader(s.src)), nil
		}
		var files, ignored []string
		for _, n := range names {
			opened = nil
			ok, err := ctx.MatchFile(dir, n)
			if err != nil {
				return nil, fmt.Errorf("tool package: %w", err)
			}
			if opened != nil {
				opened.read = true
			}
			if ok {
				files = append(files, filepath.Join(dir, n))
			} else {
				ignored = append(ignored, filepath.Join(dir, n))
			}
		}
		i := slices.IndexFunc(configs, func(c config) bool { return slices.Equal(c.files, files) })
		if i < 0 {
			configs = append(configs, config{files: files, ignored: ignored, load: p})
			i = len(configs) - 1
		}
		configs[i].platforms = append(configs[i].platforms, p)
		if p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH {
			configs[i].load = p // the build cache has its packages
		}
	}
	return configs, nil
}

// loadConfig parses and type-checks the files of one build configuration,
// with the types of its imports as progs loaded them for the
// configuration's platform. It returns the package with its errors, and
// an error only when the go command cannot be run.
func loadConfig(dir string, meta *packages.Package, cf config, progs *audit.Programs) (*packages.Package, error) {
	// Cgo as the go command builds for the host by default; off for
	// another platform, which needs no C cross-compiler to read types.
	cgo := cf.load.GOOS == runtime.GOOS && cf.load.GOARCH == runtime.GOARCH && hostCgo()
	platform := audit.Platform{GOOS: cf.load.GOOS, GOARCH: cf.load.GOARCH}
	imp, errs, err := progs.Types(platform, cgo)
	if err != nil {
		return nil, fmt.Errorf("load the imports of %s for %s: %w", dir, cf.load, err)
	}
	pkg := &packages.Package{
		ID: meta.ID, Name: meta.Name, PkgPath: meta.PkgPath, Module: meta.Module,
		Fset: token.NewFileSet(), GoFiles: cf.files, IgnoredFiles: cf.ignored,
	}
	var byPath map[string]*types.Package
	if imp != nil && imp.Platform == platform {
		// The types of another platform, with the same files, would
		// hide errors of this one's: this platform's types, or a load
		// of them below.
		pkg.Fset, byPath = imp.Fset, imp.ByPath
		if r := imp.Root; r != nil && slices.Equal(r.Files, cf.files) {
			// The audit type-checked these very files: its package.
			pkg.Syntax, pkg.Types, pkg.TypesInfo = r.Syntax, r.Types, r.Info
			return pkg, nil
		}
	}
	imports := map[string]bool{}
	fakeC := false
	for _, name := range cf.files {
		f, err := parseFile(pkg.Fset, name, parser.ParseComments|parser.SkipObjectResolution)
		if f != nil {
			pkg.Syntax = append(pkg.Syntax, f)
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				switch path {
				case "C":
					fakeC = true
				case "unsafe":
				default:
					imports[path] = true
				}
			}
		}
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			pkg.Errors = append(pkg.Errors, packages.Error{Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	if len(pkg.Errors) > 0 {
		return pkg, nil
	}
	if len(errs) > 0 {
		pkg.Errors = packageErrors(errs)
		return pkg, nil
	}
	for path := range imports {
		if byPath[path] == nil {
			// A file the audit's configuration does not compile (one
			// for cgo, say) imports it, or the audit loaded another
			// platform: the go command lists them.
			byPath, err = loadImports(dir, cf.load, slices.Sorted(maps.Keys(imports)), pkg)
			if err != nil || len(pkg.Errors) > 0 {
				return pkg, err
			}
			break
		}
	}
	pkg.TypesInfo = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{
		Sizes: types.SizesFor("gc", cf.load.GOARCH),
		// The C names of a cgo file have no types without running cgo and
		// a C compiler; the tool package is still checked, and a tool
		// whose arguments use C types is refused.
		FakeImportC: fakeC,
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if p := byPath[path]; p != nil {
				return p, nil
			}
			return nil, fmt.Errorf("package %s not found", path)
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
			}
		},
	}
	if pkg.Module != nil && pkg.Module.GoVersion != "" {
		conf.GoVersion = "go" + pkg.Module.GoVersion
	}
	pkg.Types, _ = conf.Check(pkg.PkgPath, pkg.Fset, pkg.Syntax, pkg.TypesInfo)
	return pkg, nil
}

// loadImports loads the types of the packages paths from export data
// built for platform p (with cgo off for another platform than the
// host's), adding the go command's errors to pkg.
func loadImports(dir string, p toolcheck.Platform, paths []string, pkg *packages.Package) (map[string]*types.Package, error) {
	env := append(os.Environ(), "GOOS="+p.GOOS, "GOARCH="+p.GOARCH)
	if p.GOOS != runtime.GOOS || p.GOARCH != runtime.GOARCH {
		env = append(env, "CGO_ENABLED=0") // no C cross-compiler is needed to read types
	}
	deps, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir, Env: env, BuildFlags: audit.BuildFlags(), Fset: pkg.Fset}, paths...)
	if err != nil {
		return nil, fmt.Errorf("load the imports of %s for %s: %w", dir, p, err)
	}
	byPath := map[string]*types.Package{}
	for _, d := range deps {
		pkg.Errors = append(pkg.Errors, d.Errors...)
		byPath[d.PkgPath] = d.Types
	}
	return byPath, nil
}

// packageErrors converts the audit's errors of a configuration.
func packageErrors(errs []audit.PackageError) []packages.Error {
	var out []packages.Error
	for _, e := range errs {
		kind := packages.ListError
		if e.Type {
			kind = packages.TypeError
		}
		out = append(out, packages.Error{Pos: e.Pos, Msg: e.Msg, Kind: kind})
	}
	return out
}

// hostCgo reports whether the go command builds for the host with cgo,
// as the environment says or by default.
func hostCgo() bool {
	switch os.Getenv("CGO_ENABLED") {
	case "0":
		return false
	case "1":
		return true
	}
	return build.Default.CgoEnabled
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// relPath makes file, a file name or a "file:line:col" position in it,
// relative to base when it lies under base: the position's suffix stays
// part of the last element, which filepath.Rel leaves as it is.
func relPath(base, file string) string {
	if base == "" || !filepath.IsAbs(file) {
		return file
	}
	if r, err := filepath.Rel(base, file); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return file
}

// trustC makes the warnings about the C or object code of the packages
// named in trusted notes: their code was reviewed by whoever named them.
// A name that matches no such warning is a warning itself, so that a
// trust outlives neither a typo nor the package's C code.
func trustC(ws []diagnostic, trusted []string) []diagnostic {
	used := map[string]bool{}
	for i, w := range ws {
		if w.CPackage != "" && slices.Contains(trusted, w.CPackage) {
			used[w.CPackage] = true
			ws[i].Note = true
			ws[i].Msg = fmt.Sprintf("package %s holds C or object code, which the audit cannot read; trusted (-trust-c)", w.CPackage)
		}
	}
	for _, p := range trusted {
		if !used[p] {
			ws = append(ws, diagnostic{Msg: fmt.Sprintf("-trust-c names %s, which is no package of the program with C or object code", p)})
		}
	}
	return ws
}

// foreignExts are the extensions of the files the go command hands to a
// C compiler or to the linker as they are, beside the Go files of a
// package.
var foreignExts = []string{".c", ".cc", ".cpp", ".cxx", ".m", ".f", ".F", ".for", ".f90", ".S", ".sx", ".syso", ".swig", ".swigcxx"}

// foreignCode warns about each package directory in dirs (the non-standard
// packages of the program) that holds C code: a Go file that imports "C"
// (its preamble), or a file the go command compiles with a C compiler or
// links as it is (a .syso object). The audit reads Go, and C code runs
// without a call from Go: a constructor (__attribute__((constructor)), an
// .init_array entry) runs at start in every agent, before main. Any
// file that may be built counts, whatever its build constraints. The
// warning is at the import of "C", or at the first such file.
func foreignCode(pkgs []audit.PackageDir, base string) []diagnostic {
	var out []diagnostic
	for _, pd := range pkgs {
		dir := pd.Dir
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // the go command listed it; the audit reads it
		}
		var files []string
		var at token.Position
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
				continue // the go command ignores these
			}
			if slices.Contains(foreignExts, filepath.Ext(n)) {
				files = append(files, n)
				if !at.IsValid() {
					at = token.Position{Filename: filepath.Join(dir, n), Line: 1, Column: 1}
				}
				continue
			}
			if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || !isRegular(filepath.Join(dir, n)) {
				continue
			}
			// The header alone: a file's imports come first, and the rest
			// can be of any size.
			fset := token.NewFileSet()
			src, cut, err := audit.ReadHeader(filepath.Join(dir, n))
			var f *ast.File
			if err == nil {
				f, err = parser.ParseFile(fset, filepath.Join(dir, n), src, parser.ImportsOnly)
			}
			switch {
			case cut && (err != nil || !audit.ImportsEnd(src)):
				// Its imports go on past what is read: it may import "C".
				files = append(files, n)
				if !at.IsValid() {
					at = token.Position{Filename: filepath.Join(dir, n), Line: 1, Column: 1}
				}
				continue
			case err != nil:
				continue // the go command reports it
			}
			for _, imp := range f.Imports {
				if imp.Path.Value == `"C"` {
					files = append(files, n)
					at = fset.Position(imp.Pos())
					break
				}
			}
		}
		if len(files) == 0 {
			continue
		}
		at.Filename = filepath.ToSlash(relPath(base, at.Filename))
		if _, after, ok := strings.Cut(at.Filename, "/pkg/mod/"); ok && filepath.IsAbs(at.Filename) {
			at.Filename = after
		}
		out = append(out, diagnostic{Pos: at, CPackage: pd.Path, Msg: fmt.Sprintf("package %s holds C or object code (%s), which the audit cannot read: "+
			"it can run at start in every agent without a call from Go (a C constructor, an .init_array entry), before main and the sandbox; "+
			"review it and name the package in toolgen's -trust-c, or keep it out of the program's packages", pd.Path, strings.Join(files, ", "))})
	}
	return out
}

// toolFiles returns the names of the Go files of the tool package in dir,
// tests left out, and an error if one is not a regular file (isRegular).
// A symbolic link to a directory is no file, as to the go command.
func toolFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("tool package: %w", err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, n))
		switch {
		case err != nil:
			return nil, fmt.Errorf("tool package: %w", err)
		case fi.IsDir():
			continue // as isDir
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("tool package: %s is not a regular file (a symbolic link to a device or a fifo?): the go command cannot build it either", relPath(dir, filepath.Join(dir, n)))
		}
		names = append(names, n)
	}
	return names, nil
}

// isRegular reports whether path names a regular file, following
// symbolic links (audit.RegularFile). A Go file of a package may be a
// symbolic link, which git keeps, to a device or a fifo: reading
// /dev/zero never ends, and opening a fifo waits for a writer. Only
// regular files are read, through audit.ReadRegular (parseFile).
func isRegular(path string) bool { return audit.RegularFile(path) == nil }

// isDir reports whether path names a directory, following symbolic
// links: a link to a directory named like a Go file is no file to the go
// command.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// parseFile parses the Go file name, read with audit.ReadRegular: a
// regular file of at most 64 MiB, not a file of /proc that says it is
// regular and gives gigabytes.
func parseFile(fset *token.FileSet, name string, mode parser.Mode) (*ast.File, error) {
	src, err := audit.ReadRegular(name)
	if err != nil {
		return nil, err
	}
	return parser.ParseFile(fset, name, src, mode)
}
