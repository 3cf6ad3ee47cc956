package toolcheck

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// ToolPkgPath is the import path of the package tool authors use.
const ToolPkgPath = "github.com/toolreg/toolreg/tool"

// nameRE is what OpenAI-compatible APIs accept as a function name.
var nameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// defaultTimeout mirrors tool.DefaultTimeout.
const defaultTimeout = 30 * time.Second

// Package is one build configuration of a type-checked tool package.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File // the non-test files of this configuration, with comments
	Types *types.Package
	Info  *types.Info // with Types, Defs, Uses and Selections
	// Ignored names the package's Go files that this configuration leaves
	// out; the tool files among them are judged for every platform.
	Ignored []string
	// Platforms are those every tool file must build on; nil means
	// SupportedPlatforms.
	Platforms []Platform
}

// Diagnostic is a convention violation, or a note, at a position of
// Package.Fset.
type Diagnostic struct {
	Pos     token.Pos
	Message string
	// Note marks advice that is not a violation: a file that looks like a
	// tool but is not named *_tool.go.
	Note bool
	// Lint marks a warning of the description lint: the tool is still in
	// the result, since a vague description does not make it wrong, but
	// the warning counts as one (toolgen -check fails on it).
	Lint bool
}

// CheckedTool is a tool that passed every check, with the objects an audit of
// its code starts from.
type CheckedTool struct {
	Tool    *Tool
	Type    *types.TypeName
	Execute *types.Func
}

// Result is what Check finds: the tools that passed, sorted by file, and
// the diagnostics, sorted by position.
type Result struct {
	Tools       []CheckedTool
	Diagnostics []Diagnostic
}

// IsToolFile reports whether a file name is that of a tool file.
func IsToolFile(name string) bool {
	return strings.HasSuffix(name, "_tool.go") && !strings.HasSuffix(name, "_test.go")
}

// Check checks every *_tool.go file of p against the convention and
// derives the model of each tool that follows it. A tool with a
// diagnostic is not in the result.
func Check(p *Package) *Result {
	c := &checker{p: p, docs: fieldDocs(p.Files), res: &Result{}}
	c.checkPlatforms()
	var found []CheckedTool
	for _, f := range p.Files {
		name := p.Fset.File(f.Pos()).Name()
		switch {
		case strings.HasSuffix(name, "_test.go"):
		case IsToolFile(name):
			if t, ok := c.checkFile(f, name); ok {
				found = append(found, t)
			}
		default:
			c.checkNearMiss(f, name)
		}
	}
	for _, f := range p.Files {
		c.checkGenerate(f)
	}
	found = c.unique(found)
	// A tool file excluded somewhere is left out everywhere, so that the
	// registry is the same on every platform.
	for _, f := range found {
		if !c.excluded[p.Fset.File(f.Tool.Pos).Name()] {
			c.res.Tools = append(c.res.Tools, f)
		}
	}
	slices.SortStableFunc(c.res.Diagnostics, func(a, b Diagnostic) int {
		pa, pb := p.Fset.Position(a.Pos), p.Fset.Position(b.Pos)
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Line, pb.Line),
			cmp.Compare(pa.Column, pb.Column), cmp.Compare(a.Message, b.Message))
	})
	return c.res
}

type checker struct {
	p    *Package
	docs map[token.Pos]string
	res  *Result
	// excluded holds the tool files that some platform leaves out.
	excluded map[string]bool
	// bad is set when the file being checked has a warning.
	bad bool
	// rawMessage is encoding/json.RawMessage as the package sees it, once
	// looked up; see isRawMessage.
	rawMessage     types.Type
	rawMessageSeen bool
	// nodes counts the types described of the arguments or the result
	// being derived; see MaxTypeNodes.
	nodes int
	// foreignDocs holds the field doc comments of the source files of
	// other packages read so far, by file name; see docOf.
	foreignDocs map[string]map[[2]int]string
}

// isRawMessage reports whether t is encoding/json.RawMessage: a defined
// type up to Go 1.26, an alias of encoding/json/jsontext.Value from Go
// 1.27 (GOEXPERIMENT=jsonv2). It compares types, not names, so that a
// field of either spelling, or of an alias of one, is recognised on every
// release. encoding/json is found among the packages the tool package
// imports, directly or not; a package that reaches neither cannot name
// the type.
func (c *checker) isRawMessage(t types.Type) bool {
	if !c.rawMessageSeen {
		c.rawMessageSeen = true
		if pkg := findImport(c.p.Types, "encoding/json", map[*types.Package]bool{}); pkg != nil {
			if obj, ok := pkg.Scope().Lookup("RawMessage").(*types.TypeName); ok {
				c.rawMessage = types.Unalias(obj.Type())
			}
		}
	}
	return c.rawMessage != nil && types.Identical(types.Unalias(t), c.rawMessage)
}

// findImport returns the package of import path path among the imports of
// p, direct or not, or nil.
func findImport(p *types.Package, path string, seen map[*types.Package]bool) *types.Package {
	if p == nil || seen[p] {
		return nil
	}
	seen[p] = true
	for _, imp := range p.Imports() {
		if imp.Path() == path {
			return imp
		}
	}
	for _, imp := range p.Imports() {
		if found := findImport(imp, path, seen); found != nil {
			return found
		}
	}
	return nil
}

func (c *checker) warn(pos token.Pos, format string, args ...any) {
	c.res.Diagnostics = append(c.res.Diagnostics, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
	c.bad = true
}

// lint reports a warning of the description lint, which does not leave
// the tool out.
func (c *checker) lint(pos token.Pos, msg string) {
	c.res.Diagnostics = append(c.res.Diagnostics, Diagnostic{Pos: pos, Message: msg, Lint: true})
}

func (c *checker) note(pos token.Pos, format string, args ...any) {
	c.res.Diagnostics = append(c.res.Diagnostics, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...), Note: true})
}

// toolMethods returns the Definition and Execute methods of tn's pointer
// method set, either of which may be nil.
func toolMethods(tn *types.TypeName) (def, exe *types.Selection) {
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	return ms.Lookup(tn.Pkg(), "Definition"), ms.Lookup(tn.Pkg(), "Execute")
}

// checkFile checks one *_tool.go file and returns its tool, or false
// after warnings.
func (c *checker) checkFile(f *ast.File, filename string) (found CheckedTool, ok bool) {
	c.bad = false
	start := len(c.res.Diagnostics)
	var toolPos token.Pos
	defer func() {
		if !ok && toolPos.IsValid() {
			c.ownWarning(start, filename, toolPos)
		}
	}()
	info := c.p.Info
	var candidates []*types.TypeName
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
			tn, ok := info.Defs[ts.Name].(*types.TypeName)
			if !ok {
				continue
			}
			if def, exe := toolMethods(tn); def != nil || exe != nil {
				candidates = append(candidates, tn)
			}
		}
	}
	base := filepath.Base(filename)
	switch len(candidates) {
	case 0:
		if fn := packageLevelMethod(f); fn != nil {
			T := typeNameFor(strings.TrimSuffix(base, "_tool.go"))
			c.warn(fn.Name.Pos(), "%s is a package-level function: make Definition and Execute methods of a tool type: type %s struct{}; func (%s) %s()", fn.Name.Name, T, T, fn.Name.Name)
			return CheckedTool{}, false
		}
		c.warn(f.Name.Pos(), "no exported tool type in %s: declare an exported type with methods Definition() tool.Definition and Execute(context.Context, Args) (string, error)", base)
		return CheckedTool{}, false
	case 1:
	default:
		for _, tn := range candidates[1:] {
			c.warn(tn.Pos(), "%s is a second tool type in %s (the first is %s): put one tool in each *_tool.go file", tn.Name(), base, candidates[0].Name())
		}
		return CheckedTool{}, false
	}
	tn := candidates[0]
	toolPos = tn.Pos()
	t := &Tool{File: filename, TypeName: tn.Name(), Pos: tn.Pos()}
	if tn.IsAlias() {
		c.warn(tn.Pos(), "tool type %s is an alias: declare a defined type (type %s struct{...})", tn.Name(), tn.Name())
		return CheckedTool{}, false
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		c.warn(tn.Pos(), "tool type %s is not a defined type", tn.Name())
		return CheckedTool{}, false
	}
	if named.TypeParams().Len() > 0 {
		c.warn(tn.Pos(), "tool type %s is generic: the registry needs one concrete type", tn.Name())
		return CheckedTool{}, false
	}
	if _, isIface := named.Underlying().(*types.Interface); isIface {
		c.warn(tn.Pos(), "tool type %s is an interface: it must be a concrete type whose zero value is usable", tn.Name())
		return CheckedTool{}, false
	}
	def, exe := toolMethods(tn)
	if def == nil {
		c.warn(tn.Pos(), "tool type %s has no Definition method: add func (%s) Definition() tool.Definition", tn.Name(), tn.Name())
	}
	if exe == nil {
		c.warn(tn.Pos(), "tool type %s has no Execute method: add func (%s) Execute(ctx context.Context, args %sArgs) (string, error)", tn.Name(), tn.Name(), tn.Name())
	}
	if def == nil || exe == nil {
		return CheckedTool{}, false
	}
	c.checkPromoted(tn, def)
	c.checkPromoted(tn, exe)
	if c.bad {
		return CheckedTool{}, false
	}
	c.checkDefinition(t, def.Obj().(*types.Func))
	c.checkExecute(t, exe.Obj().(*types.Func))
	if c.bad {
		return CheckedTool{}, false
	}
	if want := strings.TrimSuffix(base, "_tool.go"); t.ID != want {
		c.warn(def.Obj().Pos(), "file %s holds the tool with id %q: name the file %s_tool.go, or the id %q", base, t.ID, t.ID, want)
		return CheckedTool{}, false
	}
	return CheckedTool{Tool: t, Type: tn, Execute: exe.Obj().(*types.Func)}, true
}

// checkGenerate warns about the //go:generate lines of a file of the tool
// package, but the one that runs toolgen: go generate ./... runs them
// before toolgen checks anything, even when the file does not compile.
func (c *checker) checkGenerate(f *ast.File) {
	c.res.Diagnostics = append(c.res.Diagnostics, GenerateWarnings(f)...)
}

// GenerateWarnings warns about the //go:generate lines of f, a file of
// the tool package, but the one that runs toolgen. go generate runs the
// lines of the package's test files too, which go build, and so the
// checks of the package, leave out: toolgen passes those here itself.
func GenerateWarnings(f *ast.File) []Diagnostic {
	var out []Diagnostic
	for _, cg := range f.Comments {
		for _, cm := range cg.List {
			cmd, ok := strings.CutPrefix(cm.Text, "//go:generate ")
			if !ok || runsToolgen(cmd) {
				continue
			}
			out = append(out, Diagnostic{Pos: cm.Pos(), Message: fmt.Sprintf(
				"//go:generate %s in the tool package runs at go generate ./..., before toolgen checks the tools and even when this file does not compile: move it to a package of its own", strings.TrimSpace(cmd))})
		}
	}
	return out
}

// toolgenPath is the import path of toolgen's command.
var toolgenPath = path.Dir(ToolPkgPath) + "/cmd/toolgen"

// runsToolgen reports whether a //go:generate command runs toolgen, and
// nothing else: "toolgen ..." (the program of that name on the PATH), or
// "go run [-mod=M] [-trimpath] github.com/toolreg/toolreg/cmd/toolgen ...",
// the version the module requires. A program named toolgen elsewhere
// ("./toolgen", "go run ./x/toolgen") is the tool package's author's, and
// so is what other flags of go run bring in (-exec, -toolexec and
// -overlay run or build other code), and so may be a version given with
// @ (a pseudo-version names any commit the repository's host serves,
// a fork's included).
func runsToolgen(cmd string) bool {
	fields := strings.Fields(cmd)
	if len(fields) == 0 {
		return false
	}
	if fields[0] == "toolgen" {
		return true
	}
	if len(fields) < 3 || fields[0] != "go" || fields[1] != "run" {
		return false
	}
	fields = fields[2:]
	for len(fields) > 0 && (strings.HasPrefix(fields[0], "-mod=") || fields[0] == "-trimpath") {
		fields = fields[1:]
	}
	if len(fields) == 0 {
		return false
	}
	return fields[0] == toolgenPath
}

// TestToolNotes returns a note for each tool declared in f, a file named
// *_tool_test.go: go build leaves test files out, so such a tool is never
// registered. It reads the syntax alone, since test files are not part of
// the package toolgen checks.
func TestToolNotes(fset *token.FileSet, f *ast.File) []Diagnostic {
	base := filepath.Base(fset.File(f.Pos()).Name())
	if !strings.HasSuffix(base, "_tool_test.go") {
		return nil
	}
	var out []Diagnostic
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name != "Definition" {
			continue
		}
		recv := fd.Recv.List[0].Type
		if st, ok := recv.(*ast.StarExpr); ok {
			recv = st.X
		}
		id, ok := recv.(*ast.Ident)
		if !ok || !id.IsExported() {
			continue
		}
		out = append(out, Diagnostic{Pos: fd.Name.Pos(), Note: true, Message: fmt.Sprintf(
			"%s.Definition is in %s, a test file, which go build leaves out: the tool is not registered; to register it, move it to %s",
			id.Name, base, strings.TrimSuffix(base, "_test.go")+".go")})
	}
	return out
}

// packageLevelMethod returns the first package-level function of f named
// Definition or Execute, the methods of a tool type, or nil.
func packageLevelMethod(f *ast.File) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && (fd.Name.Name == "Definition" || fd.Name.Name == "Execute") {
			return fd
		}
	}
	return nil
}

// typeNameFor proposes a tool type name for a tool id: disk_usage is
// DiskUsage.
func typeNameFor(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		switch {
		case r == '_' || r == '-':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	if s := b.String(); s != "" && s[0] >= 'A' && s[0] <= 'Z' {
		return s
	}
	return "Tool" + b.String()
}

// ownWarning makes sure that a tool left out has a warning in its own
// file: when the diagnostics from start on are all elsewhere (in a helper
// file that declares its args type, say), it adds one at pos naming them.
func (c *checker) ownWarning(start int, filename string, pos token.Pos) {
	var elsewhere []string
	for _, d := range c.res.Diagnostics[start:] {
		if d.Lint {
			continue // the lint leaves no tool out
		}
		p := c.p.Fset.Position(d.Pos)
		if p.Filename == filename {
			return
		}
		elsewhere = append(elsewhere, fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column))
	}
	if len(elsewhere) == 0 {
		return
	}
	c.warn(pos, "the tool in %s is left out because of the warnings at %s", filepath.Base(filename), strings.Join(elsewhere, ", "))
}

// checkPromoted warns about a method promoted through an embedded pointer
// or interface: it is nil in the zero value the registry calls.
func (c *checker) checkPromoted(tn *types.TypeName, sel *types.Selection) {
	var t types.Type = tn.Type()
	for _, i := range sel.Index()[:len(sel.Index())-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return
		}
		f := st.Field(i)
		switch f.Type().Underlying().(type) {
		case *types.Pointer, *types.Interface:
			c.warn(tn.Pos(), "%s.%s is promoted through the embedded field %s, which is nil in the zero value the registry calls: declare %s on %s",
				tn.Name(), sel.Obj().Name(), f.Name(), sel.Obj().Name(), tn.Name())
			return
		}
		t = f.Type()
	}
}

func isToolDefinition(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == ToolPkgPath && n.Obj().Name() == "Definition"
}

// capabilityMask returns the bits of the Capability constants of the tool
// package that declares def.
func capabilityMask(def types.Type) uint64 {
	n, ok := types.Unalias(def).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return 0
	}
	var mask uint64
	scope := n.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		k, ok := scope.Lookup(name).(*types.Const)
		if !ok || !k.Exported() {
			continue
		}
		if kn, ok := types.Unalias(k.Type()).(*types.Named); ok && kn.Obj().Name() == "Capability" {
			if v, exact := constant.Uint64Val(k.Val()); exact {
				mask |= v
			}
		}
	}
	return mask
}

// checkDefinition reads the tool's Definition statically.
func (c *checker) checkDefinition(t *Tool, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isToolDefinition(sig.Results().At(0).Type()) {
		c.warn(fn.Pos(), "%s.Definition has signature %s: want func() tool.Definition", t.TypeName, sigString(sig, c.p.Types))
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
	info := c.p.Info
	var descPos token.Pos
	wasBad := c.bad
	c.bad = false
	defer func() { c.bad = c.bad || wasBad }()
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		key, isIdent := ast.Expr(nil), false
		if ok {
			key = kv.Key
			_, isIdent = key.(*ast.Ident)
		}
		if !ok || !isIdent {
			c.warn(elt.Pos(), "%s.Definition: use keyed fields (ID: ..., Description: ...)", t.TypeName)
			continue
		}
		name := key.(*ast.Ident).Name
		tv := info.Types[kv.Value]
		if tv.Value == nil {
			c.warn(kv.Value.Pos(), "%s.Definition: %s must be a constant, read at generate time; got %s", t.TypeName, name, types.ExprString(kv.Value))
			continue
		}
		switch name {
		case "ID", "Name", "Description":
			if tv.Value.Kind() != constant.String {
				c.warn(kv.Value.Pos(), "%s.Definition: %s must be a string constant", t.TypeName, name)
				continue
			}
			if !stringFits(tv.Value, maxConstString) {
				c.warn(kv.Value.Pos(), "%s.Definition: %s holds more than %d bytes, which toolgen does not read: every request sends it; keep it short", t.TypeName, name, maxConstString)
				continue
			}
			s := constant.StringVal(tv.Value)
			switch name {
			case "ID":
				t.ID = s
			case "Name":
				t.Name = s
			default:
				t.Desc = strings.TrimSpace(s)
				descPos = kv.Value.Pos()
			}
		case "Capabilities":
			n, exact := constant.Uint64Val(tv.Value)
			mask := capabilityMask(fn.Type().(*types.Signature).Results().At(0).Type())
			if !exact || n&^mask != 0 {
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
			c.warn(kv.Pos(), "%s.Definition: field %s is not known to this toolgen; update toolgen", t.TypeName, name)
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
		return
	}
	for _, msg := range lintTool(t.Name, t.Desc) {
		c.lint(descPos, t.TypeName+".Definition: "+msg)
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

// funcDecl finds the declaration of a function of the package.
func (c *checker) funcDecl(fn *types.Func) *ast.FuncDecl {
	for _, f := range c.p.Files {
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

// checkExecute checks Execute's signature and derives the args schema and
// the result type.
func (c *checker) checkExecute(t *Tool, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	want := fmt.Sprintf("want func(ctx context.Context, args %sArgs) (string, error), with a struct type of your own for the args", t.TypeName)
	if sig.Params().Len() != 2 || sig.Results().Len() != 2 || sig.Variadic() ||
		!isContext(sig.Params().At(0).Type()) || !isError(sig.Results().At(1).Type()) {
		c.warn(fn.Pos(), "%s.Execute has signature %s: %s", t.TypeName, sigString(sig, c.p.Types), want)
		return
	}
	argT := types.Unalias(sig.Params().At(1).Type())
	named, ok := argT.(*types.Named)
	if !ok || named.TypeParams().Len() > 0 || named.TypeArgs().Len() > 0 {
		c.warn(fn.Pos(), "%s.Execute takes args of type %s: %s", t.TypeName, types.TypeString(argT, types.RelativeTo(c.p.Types)), want)
		return
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		c.warn(fn.Pos(), "%s.Execute takes args of type %s, which is not a struct: %s", t.TypeName, named.Obj().Name(), want)
		return
	}
	d := &deriver{c: c, at: fn.Pos()}
	start := len(c.res.Diagnostics)
	c.nodes = 0
	t.Args = d.typeOf(named, nil)
	if c.nodes > MaxTypeNodes {
		t.Args = nil
		c.warn(fn.Pos(), "%s.Execute takes args of type %s, which take more than %d types to describe: a struct type used at several places is written out at each, in the schema and the decoder; nest fewer of them, or take the large part as a json.RawMessage", t.TypeName, named.Obj().Name(), MaxTypeNodes)
		return
	}
	if t.Args == nil && !slices.ContainsFunc(c.res.Diagnostics[start:], func(d Diagnostic) bool { return !d.Lint && !d.Note }) {
		// Every path that refuses the args warns; should one not, the
		// tool is still left out with a warning rather than emitted
		// without arguments.
		c.warn(fn.Pos(), "%s.Execute takes args of type %s, which toolgen cannot describe: please report this with the type", t.TypeName, named.Obj().Name())
	}
	if t.Args != nil {
		if why := freeForm(t.Args); why != "" {
			c.note(fn.Pos(), "%s has no strict schema: its arguments hold %s, which strict mode cannot state; a strict registry offers its plain schema, without strict", t.TypeName, why)
		}
	}
	res := types.Unalias(sig.Results().At(0).Type())
	if b, ok := res.(*types.Basic); ok && b.Kind() == types.String {
		return
	}
	rt, problem := c.resultType(res)
	if problem != "" {
		c.warn(fn.Pos(), "%s.Execute returns %s, %s", t.TypeName, types.TypeString(res, types.RelativeTo(c.p.Types)), problem)
		return
	}
	if why := encodable(res, map[types.Type]bool{}); why != "" {
		c.warn(fn.Pos(), "%s.Execute returns %s, which cannot be encoded as JSON (%s): return string or a type that encodes to JSON", t.TypeName, types.TypeString(res, types.RelativeTo(c.p.Types)), why)
		return
	}
	if n := silentStruct(res, map[types.Type]bool{}); n != nil {
		c.warn(fn.Pos(), "%s.Execute returns %s, and the fields of %s are all unexported or left out with json:\"-\", so encoding/json answers {}: export the fields the model should read", t.TypeName, types.TypeString(res, types.RelativeTo(c.p.Types)), n.Obj().Name())
		return
	}
	t.Result = rt
	// A struct result also gets an output schema, when one can be made.
	if n, ok := res.(*types.Named); ok {
		if _, isStruct := n.Underlying().(*types.Struct); isStruct {
			c.nodes = 0 // past MaxTypeNodes, no output schema
			if r := (&deriver{c: c, at: fn.Pos(), lenient: true}).typeOf(n, nil); r != nil && c.nodes <= MaxTypeNodes {
				t.Output = OutputSchemaJSON(r)
			}
		}
	}
}

// resultType describes a result type as a generated registry spells it,
// or says why it cannot.
func (c *checker) resultType(t types.Type) (*Type, string) {
	t = types.Unalias(t)
	switch u := t.(type) {
	case *types.Named:
		obj := u.Obj()
		if obj.Pkg() == nil {
			return nil, "which is not an answer: the first result is what the model reads; return string or a type that encodes to JSON"
		}
		if u.TypeArgs().Len() > 0 {
			return nil, "a generic type: declare a named type for the result"
		}
		if !obj.Exported() {
			return nil, fmt.Sprintf("and %s is unexported: the generated registry, in another package, cannot name it; export it", obj.Name())
		}
		return &Type{Kind: KStruct, Path: obj.Pkg().Path(), Name: obj.Name()}, ""
	case *types.Basic:
		if u.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) == 0 || u.Info()&types.IsComplex != 0 {
			return nil, "which cannot be encoded as JSON: return string or a type that encodes to JSON"
		}
		return &Type{Kind: KStruct, Name: u.Name()}, ""
	case *types.Pointer, *types.Slice, *types.Array, *types.Map:
		var elem types.Type
		out := &Type{}
		switch u := u.(type) {
		case *types.Pointer:
			out.Kind, elem = KPtr, u.Elem()
		case *types.Slice:
			out.Kind, elem = KSlice, u.Elem()
		case *types.Array:
			out.Kind, out.Len, elem = KArray, u.Len(), u.Elem()
		case *types.Map:
			out.Kind, elem = KMap, u.Elem()
			k, problem := c.resultType(u.Key())
			if problem != "" {
				return nil, problem
			}
			out.Key = k
		}
		e, problem := c.resultType(elem)
		if problem != "" {
			return nil, problem
		}
		out.Elem = e
		return out, ""
	case *types.Interface:
		if u.Empty() {
			return &Type{Kind: KAny}, ""
		}
		return nil, "an interface literal: declare a named interface type, or return any"
	case *types.Struct:
		return nil, "an anonymous struct: declare a named struct type for the result"
	}
	return nil, "which cannot be encoded as JSON: return string or a type that encodes to JSON"
}

// hasMethod reports whether t or *t has the named method.
func hasMethod(t types.Type, name string) bool {
	for _, tt := range []types.Type{t, types.NewPointer(t)} {
		if sel := types.NewMethodSet(tt).Lookup(nil, name); sel != nil {
			return true
		}
	}
	return false
}

// encodable says why values of t cannot be marshalled by encoding/json,
// or returns "".
func encodable(t types.Type, seen map[types.Type]bool) string {
	t = types.Unalias(t)
	if seen[t] {
		return ""
	}
	seen[t] = true
	if _, isIface := t.Underlying().(*types.Interface); !isIface && (hasMethod(t, "MarshalJSON") || hasMethod(t, "MarshalText")) {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsComplex != 0 || u.Kind() == types.UnsafePointer || u.Kind() == types.Invalid {
			return types.TypeString(t, nil) + " has no JSON form"
		}
	case *types.Chan, *types.Signature:
		return types.TypeString(t, nil) + " has no JSON form"
	case *types.Pointer:
		return encodable(u.Elem(), seen)
	case *types.Slice:
		return encodable(u.Elem(), seen)
	case *types.Array:
		return encodable(u.Elem(), seen)
	case *types.Map:
		k := types.Unalias(u.Key())
		b, isBasic := k.Underlying().(*types.Basic)
		if !(isBasic && b.Info()&(types.IsString|types.IsInteger) != 0) && !hasMethod(k, "MarshalText") {
			return "map key " + types.TypeString(k, nil) + " is not a string, an integer or an encoding.TextMarshaler"
		}
		return encodable(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if !f.Exported() && !f.Embedded() {
				continue
			}
			if jsonSkipped(u.Tag(i)) {
				continue
			}
			if why := encodable(f.Type(), seen); why != "" {
				return "field " + f.Name() + ": " + why
			}
		}
	}
	return ""
}

// silentStruct returns the first named struct type reachable from t
// through pointers, slices, arrays and maps, or as the type of an encoded
// field, that has fields but none encoding/json writes: it always encodes
// as {}.
func silentStruct(t types.Type, seen map[types.Type]bool) *types.Named {
	t = types.Unalias(t)
	if seen[t] {
		return nil
	}
	seen[t] = true
	if _, isIface := t.Underlying().(*types.Interface); !isIface && (hasMethod(t, "MarshalJSON") || hasMethod(t, "MarshalText")) {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return silentStruct(u.Elem(), seen)
	case *types.Slice:
		return silentStruct(u.Elem(), seen)
	case *types.Array:
		return silentStruct(u.Elem(), seen)
	case *types.Map:
		return silentStruct(u.Elem(), seen)
	case *types.Struct:
		encoded := 0
		for i := range u.NumFields() {
			f := u.Field(i)
			if (!f.Exported() && !f.Embedded()) || jsonSkipped(u.Tag(i)) {
				continue
			}
			encoded++
			if n := silentStruct(f.Type(), seen); n != nil {
				return n
			}
		}
		if n, ok := t.(*types.Named); ok && encoded == 0 && u.NumFields() > 0 {
			return n
		}
	}
	return nil
}

// unique leaves out every tool that claims a name another tool owns: a
// tool owns its id (which is also its file name), and a name that is no
// tool's id belongs to the first tool by file name that claims it.
func (c *checker) unique(found []CheckedTool) []CheckedTool {
	slices.SortFunc(found, func(a, b CheckedTool) int { return cmp.Compare(a.Tool.File, b.Tool.File) })
	owner := map[string]*Tool{}
	for _, f := range found {
		owner[f.Tool.ID] = f.Tool
	}
	var kept []CheckedTool
	for _, f := range found {
		t := f.Tool
		if o := owner[t.Name]; o != nil && o != t {
			why := "which is its id and file name"
			if o.ID != t.Name {
				why = "which claims it first by file name"
			}
			c.warn(t.Pos, "tool %s in %s uses the name %q of tool %s in %s, %s: give %s another Name",
				t.TypeName, filepath.Base(t.File), t.Name, o.TypeName, filepath.Base(o.File), why, t.TypeName)
			continue
		}
		owner[t.Name] = t
		kept = append(kept, f)
	}
	return kept
}

// checkNearMiss notes an exported type of a helper file that has the
// methods of a tool: only *_tool.go files are tools.
func (c *checker) checkNearMiss(f *ast.File, filename string) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			tn, ok := c.p.Info.Defs[ts.Name].(*types.TypeName)
			if !ok || !ts.Name.IsExported() || tn.IsAlias() {
				continue
			}
			def, exe := toolMethods(tn)
			if def == nil || exe == nil {
				continue
			}
			sig := def.Obj().Type().(*types.Signature)
			if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isToolDefinition(sig.Results().At(0).Type()) {
				continue
			}
			c.note(ts.Name.Pos(), "%s looks like a tool, but %s is a helper file: only *_tool.go files are tools; to register it, rename the file %s",
				tn.Name(), filepath.Base(filename), suggestName(c.definitionID(def.Obj().(*types.Func)), filepath.Base(filename)))
		}
	}
}

// definitionID returns the ID a Definition method returns, or "".
func (c *checker) definitionID(fn *types.Func) string {
	decl := c.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return ""
	}
	lit := definitionLiteral(decl.Body)
	if lit == nil {
		return ""
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "ID" {
			if v := c.p.Info.Types[kv.Value].Value; v != nil && v.Kind() == constant.String && stringFits(v, maxConstString) {
				return constant.StringVal(v)
			}
		}
	}
	return ""
}

// suggestName proposes the tool file name for a tool with the given id
// found in file base.
func suggestName(id, base string) string {
	if id != "" && nameRE.MatchString(id) {
		return id + "_tool.go"
	}
	stem := strings.TrimSuffix(base, ".go")
	for _, suf := range []string{"_tools", "-tools", "_tool", "-tool", "tools", "tool"} {
		if s, ok := strings.CutSuffix(stem, suf); ok && s != "" {
			stem = s
			break
		}
	}
	return strings.Trim(strings.ReplaceAll(stem, "-", "_"), "_") + "_tool.go"
}
