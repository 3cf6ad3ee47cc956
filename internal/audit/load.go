package audit

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/callgraph/vta"
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
	// rootSyntax and rootInfo are the root's syntax and type
	// information.
	rootSyntax []*ast.File
	rootInfo   *types.Info
	// host is the host's standard library, by path, when the program is
	// built for another platform; see onHost.
	host map[string]*types.Package
	// generated holds the files cgo wrote for the program; see
	// graph.generated.
	generated map[string]bool
	// byPath holds the types of every package the program imports, by
	// path: the standard library's from export data, the others from
	// source.
	byPath map[string]*types.Package
	// failed names the package that did not parse or type-check, when
	// one did not: the program holds the packages before it.
	failed string
	// std holds the paths of the packages made from the standard
	// library's export data: those the listing's go command marked
	// Standard and what their export data refers to, which the standard
	// library alone provides. Their functions have no body here, and
	// the summary stands for them; a function of any other package
	// without a body is not the standard library's (see graph.isStd).
	std map[string]bool
	// instances holds the instantiated types and the type arguments that
	// the non-standard packages name (types.Info.Instances), for
	// graph.implementers.
	instances []types.Type
	// linknamed holds the package variables of the non-standard code
	// that a //go:linkname directive names, outside cgo's files.
	linknamed map[*types.Var]bool
	// linknamedFuncs holds the functions a //go:linkname directive
	// names: code the audit does not see may call them.
	linknamedFuncs map[*types.Func]bool
	// xsys holds the packages of the genuine golang.org/x/sys
	// (genuineXSys), to which the audit's rules that name it apply.
	xsys map[string]bool
	// asmSet holds the package variables of the non-standard code that
	// assembly gives their value (see asmdata.go), with why; asmFindings
	// the directives of that assembly the audit cannot follow.
	asmSet      map[*types.Var]string
	asmFindings []Finding
}

// loadProgram type-checks the packages of l outside the standard
// library from source, against std, the standard library's types as
// built in l's configuration (read into fset), and builds the program's
// SSA. For another platform than the host, host holds the host's
// standard library, for the functions the summary cannot speak for. A
// package that does not parse or type-check stops the load: its errors
// are returned with a typeError.
func loadProgram(l *listing, fset *token.FileSet, std, host map[string]*types.Package) (*loaded, []PackageError, error) {
	// The platform is set whatever GOOS and GOARCH say: the summary is
	// the host's.
	goarch := l.config.GOARCH
	byPath := map[string]*types.Package{"unsafe": types.Unsafe}
	for path, p := range std {
		byPath[path] = p
	}
	out := &loaded{fset: fset, generated: map[string]bool{}, host: host, byPath: byPath, std: map[string]bool{}, linknamed: map[*types.Var]bool{}, linknamedFuncs: map[*types.Func]bool{}, xsys: map[string]bool{}}
	out.prog = ssa.NewProgram(fset, ssa.InstantiateGenerics)
	created := map[*types.Package]bool{}
	var createStd func(p *types.Package)
	createStd = func(p *types.Package) {
		if created[p] {
			return
		}
		created[p] = true
		out.std[p.Path()] = true
		for _, imp := range p.Imports() {
			createStd(imp)
		}
		out.prog.CreatePackage(p, nil, nil, true)
	}
	for _, path := range slices.Sorted(maps.Keys(byPath)) {
		createStd(byPath[path])
	}
	var data []asmDatum
	for _, p := range l.pkgs {
		if genuineXSys(p) {
			out.xsys[p.ImportPath] = true
		}
		data = append(data, asmData(p.ImportPath, p.Dir)...)
		files := p.CompiledGoFiles
		if len(files) == 0 {
			files = p.GoFiles
		}
		for _, name := range files {
			if !slices.Contains(p.GoFiles, name) && !slices.Contains(p.CgoFiles, name) {
				out.generated[name] = true // by cgo, in the build cache
			}
		}
		var syntax []*ast.File
		var errs []PackageError
		for _, name := range files {
			var f *ast.File
			src, err := ReadRegular(name)
			if err == nil {
				f, err = parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
			}
			if f != nil {
				syntax = append(syntax, f)
			}
			var list scanner.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					errs = append(errs, PackageError{Pos: e.Pos.String(), Msg: e.Msg, Type: true})
				}
			} else if err != nil {
				errs = append(errs, PackageError{Msg: err.Error(), Type: true})
			}
		}
		if len(errs) > 0 {
			out.failed = p.ImportPath
			return out, errs, typeError{fmt.Errorf("parse %s: %v", p.ImportPath, errs[0])}
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
		conf := types.Config{
			Sizes:    types.SizesFor("gc", goarch),
			Importer: p.importer(byPath),
			Error: func(err error) {
				if te, ok := err.(types.Error); ok {
					errs = append(errs, PackageError{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Type: true})
				}
			},
		}
		if p.Module != nil && p.Module.GoVersion != "" {
			conf.GoVersion = "go" + p.Module.GoVersion
		}
		tp, err := conf.Check(p.ImportPath, fset, syntax, info)
		if err != nil {
			out.failed = p.ImportPath
			return out, errs, typeError{fmt.Errorf("type-check %s: %w", p.ImportPath, err)}
		}
		byPath[p.ImportPath] = tp
		for _, f := range syntax {
			if out.generated[fset.Position(f.Pos()).Filename] {
				continue // cgo's own variables
			}
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					rest, ok := strings.CutPrefix(c.Text, "//go:linkname ")
					if fields := strings.Fields(rest); ok && len(fields) > 0 {
						switch obj := tp.Scope().Lookup(fields[0]).(type) {
						case *types.Var:
							out.linknamed[obj] = true
						case *types.Func:
							out.linknamedFuncs[obj] = true
						}
					}
				}
			}
		}
		// In source order, so that the audit is the same every run.
		for _, id := range slices.SortedFunc(maps.Keys(info.Instances), func(a, b *ast.Ident) int { return int(a.Pos() - b.Pos()) }) {
			inst := info.Instances[id]
			if _, ok := inst.Type.(*types.Named); ok {
				out.instances = append(out.instances, inst.Type)
			}
			for t := range inst.TypeArgs.Types() {
				out.instances = append(out.instances, t)
			}
		}
		for _, imp := range tp.Imports() {
			createStd(imp)
		}
		created[tp] = true
		sp := out.prog.CreatePackage(tp, syntax, info, true)
		out.nonStd = append(out.nonStd, sp)
		if p == l.root {
			out.root, out.rootSyntax, out.rootInfo = sp, syntax, info
		}
	}
	out.asmSet, out.asmFindings = resolveAsmData(data, byPath, out.std)
	out.prog.Build()
	return out, nil, nil
}

// hostTypes returns host's packages and every package they import, by
// path.
func hostTypes(host map[string]*types.Package) map[string]*types.Package {
	out := map[string]*types.Package{}
	var all func(p *types.Package)
	all = func(p *types.Package) {
		if out[p.Path()] != nil {
			return
		}
		out[p.Path()] = p
		for _, imp := range p.Imports() {
			all(imp)
		}
	}
	for _, path := range slices.Sorted(maps.Keys(host)) {
		all(host[path])
	}
	return out
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

// importer imports, for p's files, the packages of byPath, by the paths
// they resolve to (resolve).
func (p *listedPackage) importer(byPath map[string]*types.Package) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if t := byPath[p.resolve(path)]; t != nil {
			return t, nil
		}
		return nil, fmt.Errorf("package %s not found", path)
	})
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// userGraph builds the graph of the non-standard code: VTA, seeded with
// CHA, resolves its dynamic calls.
func userGraph(l *loaded, sum *summary) *graph {
	funcs := map[*ssa.Function]bool{}
	instances := slices.Clone(l.instances)
	var typeArgs []types.Type
	for fn := range ssautil.AllFunctions(l.prog) {
		if len(fn.Blocks) > 0 && !l.std[fnPkgPath(fn)] {
			funcs[fn] = true
		}
		// The type arguments of every function instance, the standard
		// library's (reflect.TypeFor[T]) too: what substitution made,
		// which no source names (box[T] in the body of f[T], for f[int]).
		typeArgs = append(typeArgs, fn.TypeArgs()...)
	}
	// AllFunctions is a map: sorted, so that the audit is the same every
	// run.
	slices.SortStableFunc(typeArgs, func(a, b types.Type) int { return strings.Compare(a.String(), b.String()) })
	instances = append(instances, typeArgs...)
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
	g.std = l.std
	g.host = l.host
	g.generated = l.generated
	g.linknamed = l.linknamed
	g.linknamedFuncs = l.linknamedFuncs
	g.asmSet = l.asmSet
	g.xsys = l.xsys
	g.dyn = vta.CallGraph(funcs, nil)
	g.funcs = funcs
	g.asserted = sum.asserted
	g.instances = instances
	g.reflected = g.reflectedIfaces()
	g.sysNames = sysNames(l.prog)
	g.keptEdges()
	return g
}
