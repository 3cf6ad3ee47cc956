package main

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// toolPkgPath is the import path of the package tool authors use.
const toolPkgPath = "github.com/toolreg/toolreg/tool"

// nameRE is what OpenAI-compatible APIs accept as a function name.
var nameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// defaultTimeout mirrors tool.DefaultTimeout.
const defaultTimeout = 30 * time.Second

// diagnostic is a convention violation at a position.
type diagnostic struct {
	Pos token.Position
	Msg string
}

func (d diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", d.Pos.Filename, d.Pos.Line, d.Pos.Column, d.Msg)
}

// toolPackage is what the checker found in the tool package.
type toolPackage struct {
	Path       string // import path of the tool package
	ModulePath string
	ModuleDir  string
	Tools      []*toolInfo // sorted by name
	Warnings   []diagnostic
	Explain    map[string][]string // by tool id: every capability's call paths
}

// compileError reports that the tool package does not build.
type compileError struct {
	errs []string
}

func (e *compileError) Error() string {
	return "the tool package does not compile:\n\t" + strings.Join(e.errs, "\n\t")
}

// newCompileError reports the errors of a package that does not build,
// each once, the parse and type errors (which have positions) in place of
// the go command's summary of them.
func newCompileError(errs []packages.Error, base string) *compileError {
	precise := slices.ContainsFunc(errs, func(e packages.Error) bool { return e.Kind != packages.ListError })
	ce := &compileError{}
	for _, e := range errs {
		if precise && e.Kind == packages.ListError {
			continue
		}
		msg := e.Msg
		if e.Pos != "" {
			msg = relPos(base, e.Pos) + ": " + msg
		}
		if !slices.Contains(ce.errs, msg) {
			ce.errs = append(ce.errs, msg)
		}
	}
	return ce
}

// load type-checks the package in dir and checks every *_tool.go file.
// Positions in warnings are relative to base when they lie under it.
func load(dir, base string) (*toolPackage, error) {
	pkgs, err := loadSource(dir)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("load %s: want one package, got %d", dir, len(pkgs))
	}
	pkg := pkgs[0]
	if len(pkg.Errors) > 0 {
		return nil, newCompileError(pkg.Errors, base)
	}
	if pkg.Module == nil {
		return nil, fmt.Errorf("load %s: package %s is not in a module", dir, pkg.PkgPath)
	}
	c := &checker{
		pkg:  pkg,
		base: base,
		docs: fieldDocs(pkg.Syntax),
		out: &toolPackage{
			Path:       pkg.PkgPath,
			ModulePath: pkg.Module.Path,
			ModuleDir:  pkg.Module.Dir,
			Explain:    map[string][]string{},
		},
	}
	c.checkIgnored()
	var found []*toolInfo
	for _, f := range pkg.Syntax {
		name := pkg.Fset.File(f.Pos()).Name()
		if !strings.HasSuffix(name, "_tool.go") {
			continue
		}
		if t := c.checkFile(f, name); t != nil {
			found = append(found, t)
		}
	}
	c.checkUnique(found)
	if err := c.checkStartup(); err != nil {
		return nil, err
	}
	slices.SortFunc(c.out.Warnings, func(a, b diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Msg, b.Msg))
	})
	slices.SortFunc(c.out.Tools, func(a, b *toolInfo) int { return cmp.Compare(a.Name, b.Name) })
	return c.out, nil
}

// relPos makes the file name of a "file:line:col" position relative to base.
func relPos(base, pos string) string {
	if pos == "" || base == "" {
		return pos
	}
	file, rest := pos, ""
	// The file name may hold colons; the position ends in :line:col or :line.
	for range 2 {
		if i := strings.LastIndexByte(file, ':'); i > 0 && isDigits(file[i+1:]) {
			rest = file[i:] + rest
			file = file[:i]
		}
	}
	return relPath(base, file) + rest
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func relPath(base, file string) string {
	if base == "" || !filepath.IsAbs(file) {
		return file
	}
	if r, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return file
}

type checker struct {
	pkg  *packages.Package
	base string
	docs map[token.Pos]string
	out  *toolPackage
	caps *auditState // the capability audit; see runAudit
	// bad is set when the file being checked has a warning.
	bad bool
}

func (c *checker) warn(pos token.Pos, format string, args ...any) {
	p := c.pkg.Fset.Position(pos)
	p.Filename = relPath(c.base, p.Filename)
	c.out.Warnings = append(c.out.Warnings, diagnostic{Pos: p, Msg: fmt.Sprintf(format, args...)})
	c.bad = true
}

// checkIgnored warns about tool files that the build configuration leaves
// out: the registry would differ from one platform to another.
func (c *checker) checkIgnored() {
	for _, name := range c.pkg.IgnoredFiles {
		if strings.HasSuffix(name, "_tool.go") && !strings.HasSuffix(name, "_test.go") {
			p := token.Position{Filename: relPath(c.base, name), Line: 1, Column: 1}
			c.out.Warnings = append(c.out.Warnings, diagnostic{Pos: p,
				Msg: "tool file excluded by build constraints: a tool must build on every platform; move platform code into a helper file"})
		}
	}
}

// checkFile checks one *_tool.go file and returns its tool, or nil with
// warnings.
func (c *checker) checkFile(f *ast.File, filename string) *toolInfo {
	c.bad = false
	info := c.pkg.TypesInfo
	var candidates []*types.TypeName
	exported := 0
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if !ts.Name.IsExported() {
				continue
			}
			exported++
			tn, ok := info.Defs[ts.Name].(*types.TypeName)
			if !ok {
				continue
			}
			ms := types.NewMethodSet(types.NewPointer(tn.Type()))
			if ms.Lookup(tn.Pkg(), "Definition") != nil || ms.Lookup(tn.Pkg(), "Execute") != nil {
				candidates = append(candidates, tn)
			}
		}
	}
	base := filepath.Base(filename)
	switch len(candidates) {
	case 0:
		c.warn(f.Name.Pos(), "no exported tool type in %s: declare an exported type with methods Definition() tool.Definition and Execute(context.Context, Args) (string, error)", base)
		return nil
	case 1:
	default:
		for _, tn := range candidates[1:] {
			c.warn(tn.Pos(), "%s is a second tool type in %s (the first is %s): put one tool in each *_tool.go file", tn.Name(), base, candidates[0].Name())
		}
		return nil
	}
	tn := candidates[0]
	t := &toolInfo{
		File:     filepath.ToSlash(relPath(c.out.ModuleDir, filename)),
		TypeName: tn.Name(),
		pos:      c.pkg.Fset.Position(tn.Pos()),
	}
	named := tn.Type().(*types.Named)
	if _, isIface := named.Underlying().(*types.Interface); isIface {
		c.warn(tn.Pos(), "tool type %s is an interface: it must be a concrete type whose zero value is usable", tn.Name())
		return nil
	}
	ptrSet := types.NewMethodSet(types.NewPointer(named))
	def := ptrSet.Lookup(tn.Pkg(), "Definition")
	exe := ptrSet.Lookup(tn.Pkg(), "Execute")
	if def == nil {
		c.warn(tn.Pos(), "tool type %s has no Definition method: add func (%s) Definition() tool.Definition", tn.Name(), tn.Name())
	}
	if exe == nil {
		c.warn(tn.Pos(), "tool type %s has no Execute method: add func (%s) Execute(ctx context.Context, args %sArgs) (string, error)", tn.Name(), tn.Name(), tn.Name())
	}
	if def == nil || exe == nil {
		return nil
	}
	c.checkDefinition(t, def.Obj().(*types.Func))
	c.checkExecute(t, exe.Obj().(*types.Func))
	if c.bad {
		return nil
	}
	c.checkCapabilities(t, exe.Obj().(*types.Func))
	if c.bad {
		return nil
	}
	if want := strings.TrimSuffix(base, "_tool.go"); t.ID != "" && t.ID != want {
		c.warn(def.Obj().Pos(), "file %s holds the tool with id %q: name the file %s_tool.go, or the id %q", base, t.ID, t.ID, want)
		return nil
	}
	return t
}

func isToolDefinition(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == toolPkgPath && n.Obj().Name() == "Definition"
}

// checkDefinition reads the tool's Definition statically.
func (c *checker) checkDefinition(t *toolInfo, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isToolDefinition(sig.Results().At(0).Type()) {
		c.warn(fn.Pos(), "%s.Definition has signature %s: want func() tool.Definition", t.TypeName, sigString(sig, c.pkg.Types))
		return
	}
	decl := c.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		c.warn(fn.Pos(), "%s.Definition: body not found: declare it in the tool package", t.TypeName)
		return
	}
	lit := definitionLiteral(decl.Body)
	if lit == nil {
		c.warn(decl.Pos(), "%s.Definition must be a single return of a tool.Definition{...} composite literal of constants", t.TypeName)
		return
	}
	info := c.pkg.TypesInfo
	wasBad := c.bad
	c.bad = false
	defer func() { c.bad = c.bad || wasBad }()
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			c.warn(elt.Pos(), "%s.Definition: use keyed fields (ID: ..., Description: ...)", t.TypeName)
			continue
		}
		key := kv.Key.(*ast.Ident).Name
		tv := info.Types[kv.Value]
		if tv.Value == nil {
			c.warn(kv.Value.Pos(), "%s.Definition: %s must be a constant, read at generate time; got %s", t.TypeName, key, types.ExprString(kv.Value))
			continue
		}
		switch key {
		case "ID":
			t.ID = constant.StringVal(tv.Value)
		case "Name":
			t.Name = constant.StringVal(tv.Value)
		case "Description":
			t.Desc = strings.TrimSpace(constant.StringVal(tv.Value))
		case "Capabilities":
			n, exact := constant.Uint64Val(tv.Value)
			if !exact {
				c.warn(kv.Value.Pos(), "%s.Definition: Capabilities must be tool capabilities joined with |", t.TypeName)
				continue
			}
			t.Capabilities = n
		case "Timeout":
			n, exact := constant.Int64Val(tv.Value)
			if !exact || n < 0 {
				c.warn(kv.Value.Pos(), "%s.Definition: Timeout must be a non-negative duration", t.TypeName)
				continue
			}
			t.Timeout = time.Duration(n)
		default:
			c.warn(kv.Pos(), "%s.Definition: field %s is not known to this toolgen; update toolgen", t.TypeName, key)
		}
	}
	if c.bad {
		return // the checks below would repeat the warnings above
	}
	if t.Name == "" {
		t.Name = t.ID
	}
	if t.Timeout == 0 {
		t.Timeout = defaultTimeout
	}
	switch {
	case t.ID == "":
		c.warn(lit.Pos(), "%s.Definition: ID is empty; set an id matching %s", t.TypeName, nameRE)
	case !nameRE.MatchString(t.ID):
		c.warn(lit.Pos(), "%s.Definition: ID %q does not match %s", t.TypeName, t.ID, nameRE)
	}
	if t.Name != t.ID && !nameRE.MatchString(t.Name) {
		c.warn(lit.Pos(), "%s.Definition: Name %q does not match %s (models reject other names)", t.TypeName, t.Name, nameRE)
	}
	if t.Desc == "" {
		c.warn(lit.Pos(), "%s.Definition: Description is empty; tell the model what the tool does and when to use it", t.TypeName)
	}
}

func definitionLiteral(body *ast.BlockStmt) *ast.CompositeLit {
	if len(body.List) != 1 {
		return nil
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	lit, _ := ast.Unparen(ret.Results[0]).(*ast.CompositeLit)
	return lit
}

// funcDecl finds the declaration of a method of the tool package.
func (c *checker) funcDecl(fn *types.Func) *ast.FuncDecl {
	for _, f := range c.pkg.Syntax {
		if f.Pos() > fn.Pos() || fn.Pos() > f.End() {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == fn.Pos() {
				return fd
			}
		}
	}
	return nil
}

func sigString(sig *types.Signature, pkg *types.Package) string {
	return "func" + strings.TrimPrefix(types.TypeString(sig, types.RelativeTo(pkg)), "func")
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// checkExecute checks Execute's signature and derives the args schema.
func (c *checker) checkExecute(t *toolInfo, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	want := fmt.Sprintf("want func(ctx context.Context, args %sArgs) (string, error), with a struct type of your own for the args", t.TypeName)
	if sig.Params().Len() != 2 || sig.Results().Len() != 2 || sig.Variadic() ||
		!isContext(sig.Params().At(0).Type()) || !isError(sig.Results().At(1).Type()) {
		c.warn(fn.Pos(), "%s.Execute has signature %s: %s", t.TypeName, sigString(sig, c.pkg.Types), want)
		return
	}
	argT := types.Unalias(sig.Params().At(1).Type())
	named, ok := argT.(*types.Named)
	if !ok || named.TypeParams().Len() > 0 {
		c.warn(fn.Pos(), "%s.Execute takes args of type %s: %s", t.TypeName, types.TypeString(argT, types.RelativeTo(c.pkg.Types)), want)
		return
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		c.warn(fn.Pos(), "%s.Execute takes args of type %s, which is not a struct: %s", t.TypeName, named.Obj().Name(), want)
		return
	}
	d := &deriver{c: c, at: fn.Pos()}
	t.Args = d.typeOf(named, nil)
	res := types.Unalias(sig.Results().At(0).Type())
	if b, ok := res.(*types.Basic); ok && b.Kind() == types.String {
		return
	}
	if !c.encodable(res) {
		c.warn(fn.Pos(), "%s.Execute returns %s, which cannot be encoded as JSON: return string or a struct type", t.TypeName, types.TypeString(res, types.RelativeTo(c.pkg.Types)))
		return
	}
	t.Result = &typ{Kind: kStruct}
	if n, ok := res.(*types.Named); ok {
		t.Result.Path, t.Result.Name = n.Obj().Pkg().Path(), n.Obj().Name()
		// A struct result also gets an output schema, when one can be made.
		if _, isStruct := n.Underlying().(*types.Struct); isStruct {
			if r := (&deriver{c: c, at: fn.Pos(), lenient: true}).typeOf(n, nil); r != nil {
				t.Output = schemaJSON(r)
			}
		}
	}
}

// encodable reports whether values of t can be marshalled to JSON.
func (c *checker) encodable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsComplex|types.IsUntyped) == 0 && u.Kind() != types.UnsafePointer
	case *types.Chan, *types.Signature:
		return false
	case *types.Pointer:
		return c.encodable(u.Elem())
	default:
		return true
	}
}

// checkUnique leaves out every tool whose id or name an earlier file (by
// file name) already took, and records the others.
func (c *checker) checkUnique(found []*toolInfo) {
	slices.SortFunc(found, func(a, b *toolInfo) int { return cmp.Compare(a.File, b.File) })
	ids := map[string]*toolInfo{}
	names := map[string]*toolInfo{}
	for _, t := range found {
		var first *toolInfo
		var key string
		for _, k := range []string{t.ID, t.Name} {
			if f := cmp.Or(ids[k], names[k]); f != nil && first == nil {
				first, key = f, k
			}
		}
		if first != nil {
			p := t.pos
			p.Filename = relPath(c.base, p.Filename)
			c.out.Warnings = append(c.out.Warnings, diagnostic{Pos: p,
				Msg: fmt.Sprintf("tool %s in %s uses the id or name %q of tool %s in %s, which keeps it; give this tool another id",
					t.TypeName, filepath.Base(t.File), key, first.TypeName, filepath.Base(first.File))})
			continue
		}
		ids[t.ID], names[t.Name] = t, t
		c.out.Tools = append(c.out.Tools, t)
	}
}

// loadSource loads the package in dir as packages.Load would with
// NeedName|NeedFiles|NeedSyntax|NeedTypes|NeedTypesInfo|NeedModule, but
// without having go list -export compile the package itself: that mode
// type-checks the package from source anyway, and the compile is most of
// toolgen's time for a large tool package that was just edited. It lists
// the package (no build), loads its imports' types from export data, and
// parses and type-checks its files.
func loadSource(dir string) ([]*packages.Package, error) {
	meta, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedModule,
		Dir:  dir,
	}, ".")
	if err != nil || len(meta) != 1 || len(meta[0].Errors) > 0 {
		return meta, err
	}
	pkg := meta[0]
	var paths []string
	for _, imp := range pkg.Imports {
		paths = append(paths, imp.PkgPath)
	}
	byPath := map[string]*types.Package{}
	if len(paths) > 0 {
		deps, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir}, paths...)
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			pkg.Errors = append(pkg.Errors, d.Errors...)
			byPath[d.PkgPath] = d.Types
		}
		if len(pkg.Errors) > 0 {
			return meta, nil
		}
	}
	pkg.Fset = token.NewFileSet()
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(pkg.Fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if f != nil {
			pkg.Syntax = append(pkg.Syntax, f)
		}
		if err != nil {
			pkg.Errors = append(pkg.Errors, packages.Error{Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	if len(pkg.Errors) > 0 {
		return meta, nil
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
		Sizes: types.SizesFor("gc", runtime.GOARCH),
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if imp, ok := pkg.Imports[path]; ok && byPath[imp.PkgPath] != nil {
				return byPath[imp.PkgPath], nil
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
	return meta, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
