package audit

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"runtime"
	"slices"

	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// loaded is the program of a tool package: its non-standard packages
// from source, the standard library from export data (no bodies; the
// summary stands for them).
type loaded struct {
	fset   *token.FileSet
	prog   *ssa.Program
	nonStd []*ssa.Package // in dependency order
	root   *ssa.Package
	// host is the host's standard library, by path, when the program is
	// built for another platform; see onHost.
	host map[string]*types.Package
	// generated holds the files cgo wrote for the program; see
	// graph.generated.
	generated map[string]bool
}

// loadProgram loads the package in dir and everything it imports, as
// built in configuration c. For another platform than the host, host
// holds the host's standard library, for the functions the summary
// cannot speak for.
func loadProgram(ctx context.Context, dir string, c Config) (*loaded, error) {
	// The platform is set whatever GOOS and GOARCH say: the summary is
	// the host's.
	goos, goarch := c.GOOS, c.GOARCH
	env := c.env()
	hostEnv := append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	cross := goos != runtime.GOOS || goarch != runtime.GOARCH
	meta, err := packages.Load(&packages.Config{
		Context:    ctx,
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:        dir,
		Env:        env,
		BuildFlags: c.flags(),
	}, ".")
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	if len(meta) != 1 {
		return nil, fmt.Errorf("list %s: want one package, got %d", dir, len(meta))
	}
	var order []*packages.Package
	var errs []string
	stdSet := map[string]bool{}
	packages.Visit(meta, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		if isStd(p.PkgPath) {
			return
		}
		order = append(order, p)
		for path, imp := range p.Imports {
			if isStd(imp.PkgPath) && path != "unsafe" && path != "C" {
				stdSet[imp.PkgPath] = true
			}
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("list %s: %v", dir, errs)
	}
	byPath := map[string]*types.Package{"unsafe": types.Unsafe}
	stdPaths := slices.Sorted(maps.Keys(stdSet))
	if len(stdPaths) > 0 {
		std, err := loadStd(ctx, dir, env, stdPaths)
		if err != nil {
			return nil, err
		}
		for path, p := range std {
			byPath[path] = p
		}
	}
	l := &loaded{fset: token.NewFileSet(), generated: map[string]bool{}}
	if cross {
		l.host = map[string]*types.Package{}
		if len(stdPaths) > 0 {
			host, err := loadStd(ctx, dir, hostEnv, stdPaths)
			if err != nil {
				return nil, err
			}
			var all func(p *types.Package)
			all = func(p *types.Package) {
				if l.host[p.Path()] != nil {
					return
				}
				l.host[p.Path()] = p
				for _, imp := range p.Imports() {
					all(imp)
				}
			}
			for _, p := range host {
				all(p)
			}
		}
	}
	l.prog = ssa.NewProgram(l.fset, ssa.InstantiateGenerics)
	created := map[*types.Package]bool{}
	var createStd func(p *types.Package)
	createStd = func(p *types.Package) {
		if created[p] {
			return
		}
		created[p] = true
		for _, imp := range p.Imports() {
			createStd(imp)
		}
		l.prog.CreatePackage(p, nil, nil, true)
	}
	for _, p := range byPath {
		createStd(p)
	}
	for _, p := range order {
		files := p.CompiledGoFiles
		if len(files) == 0 {
			files = p.GoFiles
		}
		for _, name := range files {
			if !slices.Contains(p.GoFiles, name) {
				l.generated[name] = true // by cgo, in the build cache
			}
		}
		var syntax []*ast.File
		for _, name := range files {
			f, err := parser.ParseFile(l.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("parse %s: %w", name, err)
			}
			syntax = append(syntax, f)
		}
		info := &types.Info{
			Types:        map[ast.Expr]types.TypeAndValue{},
			Defs:         map[*ast.Ident]types.Object{},
			Uses:         map[*ast.Ident]types.Object{},
			Implicits:    map[ast.Node]types.Object{},
			Selections:   map[*ast.SelectorExpr]*types.Selection{},
			Scopes:       map[ast.Node]*types.Scope{},
			Instances:    map[*ast.Ident]types.Instance{},
			FileVersions: map[*ast.File]string{},
		}
		imports := p.Imports
		conf := types.Config{
			Sizes: types.SizesFor("gc", goarch),
			Importer: importerFunc(func(path string) (*types.Package, error) {
				if imp, ok := imports[path]; ok && byPath[imp.PkgPath] != nil {
					return byPath[imp.PkgPath], nil
				}
				if t := byPath[path]; t != nil {
					return t, nil
				}
				return nil, fmt.Errorf("package %s not found", path)
			}),
		}
		if p.Module != nil && p.Module.GoVersion != "" {
			conf.GoVersion = "go" + p.Module.GoVersion
		}
		tp, err := conf.Check(p.PkgPath, l.fset, syntax, info)
		if err != nil {
			return nil, typeError{fmt.Errorf("type-check %s: %w", p.PkgPath, err)}
		}
		byPath[p.PkgPath] = tp
		for _, imp := range tp.Imports() {
			createStd(imp)
		}
		created[tp] = true
		sp := l.prog.CreatePackage(tp, syntax, info, true)
		l.nonStd = append(l.nonStd, sp)
		if p == meta[0] {
			l.root = sp
		}
	}
	l.prog.Build()
	return l, nil
}

// loadStd loads the types of the standard-library packages paths from
// export data built with env.
func loadStd(ctx context.Context, dir string, env, paths []string) (map[string]*types.Package, error) {
	std, err := packages.Load(&packages.Config{Context: ctx, Mode: packages.NeedName | packages.NeedTypes, Dir: dir, Env: env}, paths...)
	if err != nil {
		return nil, fmt.Errorf("load the standard library's types: %w", err)
	}
	out := map[string]*types.Package{}
	for _, p := range std {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("load %s: %v", p.PkgPath, p.Errors[0])
		}
		out[p.PkgPath] = p.Types
	}
	return out, nil
}

// foreign reports whether fn, a function of the standard library of
// another platform, is exported and does not exist, with the same name
// and receiver type name, in host, the host's standard library. Code
// outside the standard library can call only the exported functions; an
// unexported one is reached from the exported functions of its package,
// which the summary judges.
func foreign(host map[string]*types.Package, fn *ssa.Function) bool {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	f, ok := fn.Object().(*types.Func)
	if !ok || f.Pkg() == nil {
		return true
	}
	if !f.Exported() {
		return false
	}
	return !onHost(host, f)
}

// onHost reports whether f exists in host with the same name and
// receiver type name.
func onHost(host map[string]*types.Package, f *types.Func) bool {
	hp := host[f.Pkg().Path()]
	if hp == nil {
		return false
	}
	recv := f.Signature().Recv()
	if recv == nil {
		_, ok := hp.Scope().Lookup(f.Name()).(*types.Func)
		return ok
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	tn, ok := hp.Scope().Lookup(named.Origin().Obj().Name()).(*types.TypeName)
	if !ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, hp, f.Name())
	_, ok = obj.(*types.Func)
	return ok
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// userGraph builds the graph of the non-standard code: VTA, seeded with
// CHA, resolves its dynamic calls.
func userGraph(l *loaded, sum *summary) *graph {
	funcs := map[*ssa.Function]bool{}
	for fn := range ssautil.AllFunctions(l.prog) {
		if len(fn.Blocks) > 0 && !isStd(fnPkgPath(fn)) {
			funcs[fn] = true
		}
	}
	// The functions whose values the code takes (a standard-library
	// function stored in a variable, say) are candidates too: VTA
	// resolves a dynamic call only to the functions it is given.
	var ops []*ssa.Value
	for fn := range maps.Clone(funcs) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if call, ok := instr.(ssa.CallInstruction); ok && call.Common().StaticCallee() != nil {
					callee = call.Common().Value
				}
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && *op != callee {
						funcs[f] = true
					}
				}
			}
		}
	}
	g := newGraph(l.prog)
	g.summary = sum
	g.host = l.host
	g.generated = l.generated
	g.dyn = vta.CallGraph(funcs, nil)
	g.asserted = sum.asserted
	g.sysNames = sysNames(l.prog)
	return g
}
