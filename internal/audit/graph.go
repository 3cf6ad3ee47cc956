package audit

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"maps"
	"math/bits"
	"slices"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/toolreg/toolreg/tool"
)

// nbits is the number of capabilities, and the mark of unresolved calls.
const nbits = 7

// unresolved marks a path to a dynamic call the audit cannot resolve: not
// a capability of a tool (the code that made the value it calls has the
// edge to it), but a warning in start-up code, which runs before any
// sandbox and where the audit is the only line (fail closed).
const unresolved tool.Capability = 1 << 6

// allCaps are the capabilities of package tool.
const allCaps = tool.Capability(1<<6 - 1)

// node is a function of the program, or a pseudo function that stands
// for a classified operation (a system call with its number, an open with
// its flags, a variable of the standard library, a conversion through
// unsafe.Pointer).
type node struct {
	key string
	fn  *ssa.Function // nil for pseudo nodes
	out []edge
	in  []*node

	// boundary is set when the node's capabilities are own, by a rule
	// or from the standard-library summary, and its edges are not
	// followed.
	boundary bool
	own      tool.Capability
	why      string
	// pkgRule is set when the node's package has a rule: a safe rule,
	// or one of pkgMasks, replaces whatever its edges reach; another is
	// added to it, if it reaches anything (see pkgRules).
	pkgRule bool
	pkgCaps tool.Capability
	pkgMask bool // the rule replaces what the edges reach (safe, pkgMasks)
	pkg     string

	caps tool.Capability
	next [nbits]int32 // per capability, the out edge towards it; -1 at the source
	dist [nbits]int32 // per capability, the calls to its source; -1 unreached
	done bool         // the body was scanned
}

// edge is a call, or the creation of a value through which a call can
// happen, at pos.
type edge struct {
	to  *node
	pos token.Pos
}

// graph is the reachability graph of a program, built lazily from its
// roots (user mode) or from all functions (standard-library mode).
type graph struct {
	prog  *ssa.Program
	nodes map[string]*node
	byFn  map[*ssa.Function]*node
	list  []*node
	queue []*node
	// stdMode builds the standard library's own graph; otherwise the
	// standard library's functions are leaves from summary.
	stdMode bool
	summary *summary
	// std holds the packages of the standard library in user mode (see
	// loaded.std): only their functions are leaves from summary.
	std map[string]bool
	// host is the host's standard library when the program is built for
	// another platform than the summary's: an exported function of the
	// standard library the summary does not list and the host does not
	// have is one the summary cannot speak for, and counts as Unsafe
	// (see foreign).
	host map[string]*types.Package
	// generated holds the files cgo wrote (in the build cache) for the
	// non-standard code. Their lines that come from a source file say so
	// (//line), and a position there is the source's; a position still
	// in a generated file is cgo's own code, whose conversions through
	// unsafe.Pointer (the addresses of the C functions, taken at start)
	// are not the program's. A call into C stays Unsafe: it reaches
	// runtime.cgocall, which has no Go body.
	generated map[string]bool
	// linknamed holds the program's package variables that a
	// //go:linkname directive names (loaded.linknamed): each is, or may
	// be, another package's, the runtime's state among them, and its use
	// is Unsafe (probe linknamevar).
	linknamed map[*types.Var]bool
	// linknamedFuncs holds the program's functions a //go:linkname
	// directive names (see neverCalled).
	linknamedFuncs map[*types.Func]bool
	// asmSet holds the program's package variables that assembly gives
	// their value (loaded.asmSet), with why: what they hold is code no
	// Go names, and their use is Unsafe (probe asmdata).
	asmSet map[*types.Var]string
	// xsys holds the packages of the genuine golang.org/x/sys
	// (loaded.xsys): the rules that name a package outside the standard
	// library apply to them alone (see ruled).
	xsys map[string]bool
	// dyn resolves dynamic calls of non-standard code (VTA); nil in
	// standard-library mode, where dynamic calls are attributed to the
	// code that made the value (see creation edges).
	dyn *callgraph.Graph
	// asserted holds the methods (methodKey) of every interface some
	// code of the program, the standard library's included, asserts a
	// value to: whoever holds a value in an interface can call those of
	// its methods, and no others, without reflection by name (which is
	// classified) or a static call (an edge of its own).
	asserted map[string]bool
	// reflected holds the interface types reflection can reach
	// (reflectedIfaces), in user mode: a value made by reflection may be
	// stored into one of them and its methods called there; reflectedOf
	// caches reflectedMethods. Unlike asserted, they do not spare a type
	// assertion of the program its edges: the standard library's values
	// were not charged with them.
	reflected   []*types.Interface
	reflectedOf typeutil.Map
	// unknownStored holds the methods reflectStoreEdges adds for a value
	// it cannot trace, made once.
	unknownStored []*ssa.Function
	// flows holds what the program's reflective stores of values the
	// audit traces put where VTA does not see it (reflectFlows), made
	// once.
	flows *reflectFlow
	// convs holds what conversions between struct types of the same
	// fields hide from VTA (structConvs), made once.
	convs *structConv
	// escaping caches addrEscapes.
	escaping map[*ssa.Global]bool
	// ctxIdx holds the program's context.WithValue calls
	// (contextIndex), made once.
	ctxIdx *contextIndex
	// byMethod indexes the methods of the program's types by methodKey,
	// for the type assertions of non-standard code (implementers).
	byMethod map[string][]*ssa.Function
	// instances holds the instantiated types and type arguments of the
	// program (loaded.instances, and those of every function instance):
	// implementers walks them, with the types they hold.
	instances []types.Type
	// funcs are the functions of the program (VTA's), and calls, made
	// from them when first needed, where each is called (see dynTypes).
	funcs map[*ssa.Function]bool
	calls *callSites
	// named is funcs in the order of byName, and userBySig those
	// outside the standard library by signature, each list in that
	// order: both made once (funcsByName, userFuncsOf).
	named     []*ssa.Function
	userBySig *typeutil.Map
	// heldByIface holds the types the program's runtime types are or
	// hold (inInterface), made once.
	heldByIface *typeutil.Map
	// partOfIface holds the types that are parts of the program's
	// runtime types (typeParts, transitively), and conversions the
	// program's conversions to interfaces by the converted type: both
	// made once, for ifaceReceivers.
	partOfIface *typeutil.Map
	conversions *typeutil.Map
	// fresh caches freshMaps; sharers holds, for such a variable, the
	// other variables its maps are stored into where they are made.
	fresh   map[*ssa.Global]bool
	sharers map[*ssa.Global][]*ssa.Global
	// fieldDepth bounds the recursion of structFieldValues.
	fieldDepth int
	// rootPkg is the package of the tools (user mode).
	rootPkg *types.Package
	// stored holds the values stored into each of the program's
	// variables whose address is only loaded and stored through
	// (indexStores), made when first needed.
	stored *varStores
	// sysNames names system call numbers by their SYS_ constants.
	sysNames map[int64]string
	// inits maps a standard-library variable to the values its package
	// initializer stores into it.
	inits map[*ssa.Global][]ssa.Value
	// keepText holds the summary's lines of the standard library's
	// package state (keepLines), in standard-library mode.
	keepText []string
	// progStores holds the values the program stores into each of its
	// variables, their fields and elements (keptEdges).
	progStores map[*ssa.Global][]ssa.Value
	// byTypeVars holds the standard library's variables the summary's
	// keeps name, by name (rootsByType); nil for one the program's types
	// do not declare.
	byTypeVars map[string]*ssa.Global
	byType     typeutil.Map // types.Type → []keptAt
	allocVals  map[*ssa.Alloc][]ssa.Value
}

func newGraph(prog *ssa.Program) *graph {
	return &graph{prog: prog, nodes: map[string]*node{}, byFn: map[*ssa.Function]*node{}}
}

func (g *graph) add(n *node) *node {
	for i := range n.next {
		n.next[i], n.dist[i] = -1, -1
	}
	g.nodes[n.key] = n
	g.list = append(g.list, n)
	return n
}

// pseudo returns the boundary node key, made once.
func (g *graph) pseudo(key string, caps tool.Capability, why string) *node {
	if n := g.nodes[key]; n != nil {
		return n
	}
	return g.add(&node{key: key, boundary: true, own: caps, why: why, done: true})
}

// isStd reports whether path is a package of the standard library: in
// standard-library mode every package is; otherwise those the go command
// listed as the standard library's (g.std), not any path without a dot
// in its first element, which a module's may be too. A package that is
// not is analysed from its source, and its functions without a body
// count as Unsafe (fail closed), never as the summary's silence.
func (g *graph) isStd(path string) bool {
	return g.stdMode || g.std[path]
}

// byName returns fns sorted by their names (ssa.Function.String), so
// that what the audit does with them is the same every run. Each name is
// made once: a sort that made them in each comparison spent most of the
// audit's time making them.
func byName(fns iter.Seq[*ssa.Function]) []*ssa.Function {
	type named struct {
		fn   *ssa.Function
		name string
	}
	var s []named
	for fn := range fns {
		s = append(s, named{fn, fn.String()})
	}
	slices.SortFunc(s, func(a, b named) int { return strings.Compare(a.name, b.name) })
	out := make([]*ssa.Function, len(s))
	for i, n := range s {
		out[i] = n.fn
	}
	return out
}

// funcsByName returns the functions of the program in the order of
// byName.
func (g *graph) funcsByName() []*ssa.Function {
	if g.named == nil {
		g.named = byName(maps.Keys(g.funcs))
	}
	return g.named
}

// userFuncsOf returns the functions of the program outside the standard
// library whose signature is identical to sig, in the order of byName.
func (g *graph) userFuncsOf(sig *types.Signature) []*ssa.Function {
	if g.userBySig == nil {
		g.userBySig = new(typeutil.Map)
		for _, fn := range g.funcsByName() {
			if !g.isStd(fnPkgPath(fn)) {
				fns, _ := g.userBySig.At(fn.Signature).([]*ssa.Function)
				g.userBySig.Set(fn.Signature, append(fns, fn))
			}
		}
	}
	fns, _ := g.userBySig.At(sig).([]*ssa.Function)
	return fns
}

func fnPkgPath(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Path()
	}
	if obj := fn.Object(); obj != nil && obj.Pkg() != nil {
		return obj.Pkg().Path()
	}
	return ""
}

// funcKey names fn as the summary and the rules do: its SSA name, the
// generic origin's for an instance without a body.
func funcKey(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil && len(fn.Blocks) == 0 {
		return o.String()
	}
	return fn.String()
}

// nodeOf returns fn's node, classifying it when it is first seen.
func (g *graph) nodeOf(fn *ssa.Function) *node {
	if n := g.byFn[fn]; n != nil {
		return n
	}
	key := funcKey(fn)
	path := fnPkgPath(fn)
	if n := g.nodes[key]; n != nil && n.fn != nil {
		// The same function made twice (a bound-method wrapper per
		// use): one node.
		g.byFn[fn] = n
		return n
	}
	n := &node{key: key, fn: fn, pkg: path}
	g.add(n)
	g.byFn[fn] = n
	body := len(fn.Blocks) > 0
	switch c, ok := funcRules[key]; {
	case ok:
		n.boundary, n.own, n.why, n.done = true, c, "classified function", true
	case !g.stdMode && g.isStd(path) && !body:
		n.boundary, n.done = true, true
		n.own, n.why = g.summary.caps(key)
		if n.why == "" && g.host != nil && foreign(g.host, fn) {
			n.own, n.why = tool.Unsafe, "not in the standard-library summary of "+platform()+": a function of another platform"
		}
	case body:
		if c, ok := pkgRule(path, g.isStd(path)); ok {
			n.pkgRule, n.pkgCaps, n.pkgMask = true, c, c == safe || pkgMasks[path]
		}
		g.queue = append(g.queue, n)
	default:
		n.boundary, n.done = true, true
		if c, ok := asmRule(path, g.isStd(path)); ok && g.ruled(path) {
			n.own, n.why = c, "package "+path
		} else {
			n.own, n.why = tool.Unsafe, "no Go body (assembly, linkname or cgo)"
		}
	}
	return n
}

// globalNode returns the node of a standard-library variable: what its
// package initializer stored in it can be called through it.
func (g *graph) globalNode(v *ssa.Global) *node {
	key := "var " + v.String()
	if n := g.nodes[key]; n != nil {
		return n
	}
	if c, ok := funcRules[key]; ok {
		return g.pseudo(key, c, "classified variable")
	}
	if !g.stdMode {
		caps, why := g.summary.caps(key)
		return g.pseudo(key, caps, why)
	}
	n := g.add(&node{key: key, pkg: v.Pkg.Pkg.Path(), done: true})
	for _, val := range g.inits[v] {
		g.valueEdges(n, val, v.Pos())
	}
	return n
}

// valueEdges adds the edges of a value stored at start: the methods of an
// interface's concrete type and what it holds (a function value of a
// named func type: expvar.Func(cmdline)), a function value, the
// initializer call.
func (g *graph) valueEdges(n *node, val ssa.Value, pos token.Pos) {
	switch val := val.(type) {
	case *ssa.MakeInterface:
		g.methodEdges(n, val.X.Type(), ifaceOf(val.Type()), pos, false)
		g.valueEdges(n, val.X, pos)
	case *ssa.ChangeType:
		g.valueEdges(n, val.X, pos)
	case *ssa.Function:
		n.out = append(n.out, edge{g.nodeOf(val), pos})
	case *ssa.MakeClosure:
		n.out = append(n.out, edge{g.nodeOf(val.Fn.(*ssa.Function)), pos})
	case *ssa.Call:
		if c := val.Call.StaticCallee(); c != nil {
			n.out = append(n.out, edge{g.nodeOf(c), pos})
		}
	}
}

// methodKey names a method by its name and signature (without the
// receiver), as an interface lists it.
func methodKey(name string, sig types.Type) string {
	var b strings.Builder
	b.WriteString(name)
	s := sig.(*types.Signature)
	for i, t := range []*types.Tuple{s.Params(), s.Results()} {
		b.WriteString([]string{"(", " ("}[i])
		for j := range t.Len() {
			if j > 0 {
				b.WriteString(", ")
			}
			if i == 0 && s.Variadic() && j == t.Len()-1 {
				b.WriteString("...")
			}
			writeTypeKey(&b, t.At(j).Type())
		}
		b.WriteString(")")
	}
	return b.String()
}

// writeTypeKey writes t as methodKey spells it: one spelling for all the
// ways Go writes one type, since two methods whose signatures are
// identical implement the same interface. Aliases are followed, byte and
// rune are uint8 and int32, any is interface{}; types.TypeString keeps
// each as written, and a MarshalJSON that returns []uint8, or a Format
// that takes an int32, missed the standard library's asserted
// interfaces (probes jsonuint8, fmtint32, assertalias).
func writeTypeKey(b *strings.Builder, t types.Type) {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		b.WriteString(types.Typ[t.Kind()].Name())
	case *types.Pointer:
		b.WriteString("*")
		writeTypeKey(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		writeTypeKey(b, t.Elem())
	case *types.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		writeTypeKey(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		writeTypeKey(b, t.Key())
		b.WriteString("]")
		writeTypeKey(b, t.Elem())
	case *types.Chan:
		b.WriteString([]string{"chan ", "chan<- ", "<-chan "}[t.Dir()])
		if c, ok := types.Unalias(t.Elem()).(*types.Chan); ok && t.Dir() == types.SendRecv && c.Dir() == types.RecvOnly {
			b.WriteString("(")
			writeTypeKey(b, t.Elem())
			b.WriteString(")")
			return
		}
		writeTypeKey(b, t.Elem())
	case *types.Signature:
		b.WriteString("func")
		b.WriteString(methodKey("", t))
	case *types.Struct:
		b.WriteString("struct{")
		for i := range t.NumFields() {
			if i > 0 {
				b.WriteString("; ")
			}
			f := t.Field(i)
			if !f.Embedded() {
				b.WriteString(f.Name())
				b.WriteString(" ")
			}
			writeTypeKey(b, f.Type())
			if tag := t.Tag(i); tag != "" {
				fmt.Fprintf(b, " %q", tag)
			}
		}
		b.WriteString("}")
	case *types.Interface:
		if !t.IsMethodSet() {
			b.WriteString(types.TypeString(t, nil))
			return
		}
		b.WriteString("interface{")
		for i := range t.NumMethods() {
			if i > 0 {
				b.WriteString("; ")
			}
			m := t.Method(i)
			b.WriteString(methodKey(m.Name(), m.Type()))
		}
		b.WriteString("}")
	case *types.Named:
		if obj := t.Obj(); obj.Pkg() != nil {
			b.WriteString(obj.Pkg().Path())
			b.WriteString(".")
		}
		b.WriteString(t.Obj().Name())
		if args := t.TypeArgs(); args.Len() > 0 {
			b.WriteString("[")
			for i := range args.Len() {
				if i > 0 {
					b.WriteString(", ")
				}
				writeTypeKey(b, args.At(i))
			}
			b.WriteString("]")
		}
	default:
		b.WriteString(types.TypeString(t, nil))
	}
}

// assertedMethods adds to set the methods of every interface that a
// type assertion in fns asserts to.
func assertedMethods(set map[string]bool, fns func(yield func(*ssa.Function) bool)) {
	for fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if it := assertedIface(instr); it != nil {
					for m := range it.Methods() {
						set[methodKey(m.Name(), m.Type())] = true
					}
				}
			}
		}
	}
}

// assertedIface returns the interface instr asserts a value to, if it
// does: a type assertion, or a generic function of the standard library
// that asserts to its type argument, which its summary, built without
// instances, cannot see: Go 1.26's reflect.TypeAssert[T] (which
// encoding/json, encoding/xml and encoding/gob use for their interfaces)
// and errors.AsType[E] (probe astype).
func assertedIface(instr ssa.Instruction) *types.Interface {
	var asserted types.Type
	switch instr := instr.(type) {
	case *ssa.TypeAssert:
		asserted = instr.AssertedType
	case ssa.CallInstruction:
		if c := instr.Common().StaticCallee(); c != nil && c.Origin() != nil && len(c.TypeArgs()) == 1 {
			switch c.Origin().String() {
			case "reflect.TypeAssert", "errors.AsType":
				asserted = c.TypeArgs()[0]
			}
		}
	}
	if asserted == nil {
		return nil
	}
	it, _ := asserted.Underlying().(*types.Interface)
	return it
}

// assertEdges adds the edges of the type assertion instr to it in
// non-standard code: each method of it that the standard library's
// assertions do not already cover (those are edges of the code that made
// the value, methodEdges) is taken as called, here, on the types the
// asserted value can hold. When the audit knows them all (dynTypes: the
// value is made by conversions in the program's code and reaches the
// assertion through its values, calls and returns, never through memory,
// the standard library or reflection) those are its types; otherwise the
// value may come from anywhere, and they are every type of the program
// that has the method (fail closed). The asserting code, not the maker of
// the value, has the edge: one tool's assertion does not widen another's,
// and another tool's types do not widen this one's.
func (g *graph) assertEdges(n *node, it *types.Interface, instr ssa.Instruction) {
	var known []types.Type
	var convs []*ssa.MakeInterface
	traced := false
	if ta, ok := instr.(*ssa.TypeAssert); ok {
		known, convs, traced = g.dynConversions(ta.X)
	}
	for m := range it.Methods() {
		key := methodKey(m.Name(), m.Type())
		if g.asserted[key] {
			continue
		}
		if traced && len(convs) > 0 && !slices.ContainsFunc(convs, func(c *ssa.MakeInterface) bool {
			ci := ifaceOf(c.Type())
			return ci == nil || !slices.ContainsFunc(slices.Collect(ci.Methods()), func(cm *types.Func) bool {
				return methodKey(cm.Name(), cm.Type()) == key
			})
		}) {
			// Every value traced to a conversion, in this chain of
			// calls, to an interface with the method: its maker has
			// the edge (a recorder put in a context and asserted back,
			// honest ctxrecorder).
			continue
		}
		if !traced {
			for _, fn := range g.implementers(key) {
				n.out = append(n.out, edge{g.nodeOf(fn), instr.Pos()})
			}
			continue
		}
		for _, t := range known {
			sel := g.prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
			if sel == nil || methodKey(sel.Obj().Name(), sel.Obj().Type()) != key {
				continue
			}
			if fn := g.prog.MethodValue(sel); fn != nil {
				n.out = append(n.out, edge{g.nodeOf(fn), instr.Pos()})
			}
		}
	}
}

// implementers returns the methods with key of every type of the
// program that reflection can make a value of, and of its pointer: the
// named types of every package, the types the program makes at run time,
// the instantiated types and type arguments the program holds
// (g.instances), and every type these hold (fields, exported or not,
// elements, keys, pointers, and the parameters and results of a func
// type), which reflect.Type's Field, Elem, Key, In and Out give to
// reflect.New. An instance of a generic type need not be made into an
// interface to be made by reflection (reflect.New(reflect.TypeFor[box[int]]()),
// the field of a struct reflect.New made), so it is not always a runtime
// type.
func (g *graph) implementers(key string) []*ssa.Function {
	if g.byMethod == nil {
		g.byMethod = map[string][]*ssa.Function{}
		var seen typeutil.Map
		for t := range g.reflectable {
			for _, mt := range []types.Type{t, types.NewPointer(t)} {
				if seen.Set(mt, true) != nil {
					continue
				}
				if _, ok := mt.Underlying().(*types.Interface); ok {
					continue
				}
				ms := g.prog.MethodSets.MethodSet(mt)
				for i := range ms.Len() {
					sel := ms.At(i)
					k := methodKey(sel.Obj().Name(), sel.Obj().Type())
					// nil for a method of a generic type, whose instances
					// are added on their own.
					if fn := g.prog.MethodValue(sel); fn != nil {
						g.byMethod[k] = append(g.byMethod[k], fn)
					}
				}
			}
		}
		// One entry a function (a type may be walked under two
		// identical instances), in an order of its own: the walk's
		// depends on map iteration.
		for k, fns := range g.byMethod {
			slices.SortFunc(fns, func(a, b *ssa.Function) int { return strings.Compare(a.String(), b.String()) })
			g.byMethod[k] = slices.Compact(fns)
		}
	}
	return g.byMethod[key]
}

// reflectable yields every type of the program that reflection can reach
// (see implementers), each once: the named types of every package, the
// types the program makes at run time, the instantiated types and type
// arguments the program holds, and every type these hold (fields,
// elements, keys, pointers, the parameters and results of a func type
// and of a method).
func (g *graph) reflectable(yield func(types.Type) bool) {
	var walked typeutil.Map
	stop := false
	var walk func(t types.Type)
	walk = func(t types.Type) {
		t = types.Unalias(t)
		if stop || walked.Set(t, true) != nil {
			return
		}
		if !yield(t) {
			stop = true
			return
		}
		if _, ok := t.Underlying().(*types.Interface); !ok {
			// reflect.Type's Method(i).Type: a method's parameters and
			// results are types reflection reaches too.
			ms := g.prog.MethodSets.MethodSet(t)
			for i := range ms.Len() {
				walk(ms.At(i).Type())
			}
		}
		typeParts(t, walk)
		if u, ok := t.Underlying().(*types.Interface); ok {
			// reflect.Type's Method(i).Type of an interface type.
			for m := range u.Methods() {
				walk(m.Type())
			}
		}
	}
	for _, p := range g.prog.AllPackages() {
		for _, name := range p.Pkg.Scope().Names() {
			if tn, ok := p.Pkg.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
					continue // generic: its instances are added on their own
				}
				walk(tn.Type())
			}
		}
	}
	for _, t := range g.prog.RuntimeTypes() {
		walk(t)
	}
	for _, t := range g.instances {
		walk(t)
	}
}

// reflectedIfaces returns every interface type with methods that
// reflection can reach (reflectable), the standard library's named ones
// included: a value the standard library made and returned in an
// interface may hold a field of one. Reflection stores a value into a variable,
// field or element of such a type (reflect.Value.Set, Convert, Call's
// arguments, errors.As, encoding/gob's interface fields), an assertion
// to it that no code of the program spells, and the value's methods of it
// can then be called through the interface without another assertion
// (probes reflectset, reflectconvert, gobiface, tmplfuncarg).
func (g *graph) reflectedIfaces() []*types.Interface {
	var out []*types.Interface
	var seen typeutil.Map
	g.reflectable(func(t types.Type) bool {
		it, ok := t.Underlying().(*types.Interface)
		if ok && it.IsMethodSet() && it.NumMethods() > 0 && seen.Set(it, true) == nil {
			out = append(out, it)
		}
		return true
	})
	return out
}

// reflectedMethods returns the methods (methodKey) of the interfaces of
// g.reflected that t implements: like those of the standard library's
// assertions (graph.asserted), they are charged to the code that makes a
// value of t, which reflection can store into such an interface.
func (g *graph) reflectedMethods(t types.Type) map[string]bool {
	if g.reflected == nil || g.stdType(t) {
		// A type of the standard library made into an interface by
		// the program: the program's own reflection can store it into
		// one of g.reflected, and that call has the edges
		// (reflectStoreEdges); the standard library's stores it does
		// not make (a template's data, errors.As, gob) take the
		// program's types.
		return nil
	}
	if m := g.reflectedOf.At(t); m != nil {
		return m.(map[string]bool)
	}
	out := map[string]bool{}
	for _, it := range g.reflected {
		if types.Implements(t, it) {
			for m := range it.Methods() {
				out[methodKey(m.Name(), m.Type())] = true
			}
		}
	}
	g.reflectedOf.Set(t, out)
	return out
}

// stdType reports whether t, or what it points to, is a named type of
// the standard library.
func (g *graph) stdType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && g.isStd(named.Obj().Pkg().Path())
}

// reflectStores are the functions of package reflect that store a value
// into a variable, element, map entry or channel of its own type, an
// interface among them, or convert it to one: whatever reflection reaches
// (a file the standard library returned as an fs.File, say) goes into an
// interface of g.reflected there (probe reflectstd). Calls by reflection
// (Call, CallSlice, MakeFunc) are Unsafe.
var reflectStores = map[string]bool{
	"(reflect.Value).Set":          true,
	"(reflect.Value).SetMapIndex":  true,
	"(reflect.Value).SetIterKey":   true,
	"(reflect.Value).SetIterValue": true,
	"(reflect.Value).Send":         true,
	"(reflect.Value).TrySend":      true,
	"(reflect.Value).Convert":      true,
	"reflect.Append":               true,
	"reflect.AppendSlice":          true,
	"reflect.Copy":                 true,
	"reflect.Select":               true,
}

// reflectStore reports whether fn is one of reflectStores, or a wrapper
// of one (a method value's $bound, a method expression's $thunk).
func reflectStore(fn *ssa.Function) bool {
	f, ok := fn.Object().(*types.Func)
	return ok && reflectStores[f.FullName()]
}

// reflectStoreEdges adds the edges of a reflective store in the
// program's code at pos, the call common (nil for a method value or
// expression): the methods of g.reflected's interfaces on the types the
// stored value can have that implement one. The value's types are those
// of x in a stored reflect.ValueOf(x) when the audit traces x (dynTypes),
// and then only the standard library's count: the program's own charge
// them where they are made, in the same chain of calls
// (reflectedMethods). Otherwise every type reflection reaches counts,
// the program's too (fail closed): a value another tool made and kept in
// a variable, stored by reflection into an interface field where VTA does
// not see it, runs its methods in this chain (probe svcreflect).
func (g *graph) reflectStoreEdges(n *node, common *ssa.CallCommon, pos token.Pos) {
	if known, ok := g.storedTypes(common); ok {
		for _, t := range known {
			if !g.stdType(t) {
				continue
			}
			for _, fn := range g.reflectedImpls(t) {
				n.out = append(n.out, edge{g.nodeOf(fn), pos})
			}
		}
		return
	}
	for _, fn := range g.unknownStoredMethods() {
		n.out = append(n.out, edge{g.nodeOf(fn), pos})
	}
}

// unknownStoredMethods returns the methods of g.reflected's interfaces on
// every type reflection reaches, the program's too: what a reflective
// store of a value the audit cannot trace may put into an interface.
func (g *graph) unknownStoredMethods() []*ssa.Function {
	if g.unknownStored == nil {
		g.unknownStored = []*ssa.Function{}
		var seen typeutil.Map
		g.reflectable(func(t types.Type) bool {
			for _, mt := range []types.Type{t, types.NewPointer(t)} {
				if _, ok := mt.Underlying().(*types.Interface); ok || seen.Set(mt, true) != nil {
					continue
				}
				g.unknownStored = append(g.unknownStored, g.reflectedImpls(mt)...)
			}
			return true
		})
		slices.SortFunc(g.unknownStored, func(a, b *ssa.Function) int { return strings.Compare(a.String(), b.String()) })
		g.unknownStored = slices.Compact(g.unknownStored)
	}
	return g.unknownStored
}

// registerStores are the functions of the standard library that
// register a value whose type the standard library then makes by
// reflection and stores into an interface of the program, with the index
// of the value: encoding/gob decodes a registered type into a field of
// any interface type it implements.
var registerStores = map[string]int{
	"encoding/gob.Register":     0,
	"encoding/gob.RegisterName": 1,
}

// registerEdges adds the edges of a registration of v at pos (see
// registerStores): the methods of the reflected interfaces on v's type and
// its pointer, the standard library's types included, which no maker
// charges (probe gobstd: an http.Dir decoded into an http.FileSystem).
// A value of a type the audit does not see counts as every type of the
// standard library reflection reaches (the program's own types charge
// them where they are made).
func (g *graph) registerEdges(n *node, v ssa.Value, pos token.Pos) {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		g.reflectStoreEdges(n, nil, pos)
		return
	}
	t := mi.X.Type()
	for _, mt := range []types.Type{t, types.NewPointer(t)} {
		if _, isPtr := t.(*types.Pointer); isPtr && mt != t {
			continue
		}
		for _, fn := range g.reflectedImpls(mt) {
			n.out = append(n.out, edge{g.nodeOf(fn), pos})
		}
	}
}

// reflectedImpls returns the methods of t of every interface of
// g.reflected that t implements.
func (g *graph) reflectedImpls(t types.Type) []*ssa.Function {
	var out []*ssa.Function
	for _, it := range g.reflected {
		if !types.Implements(t, it) {
			continue
		}
		for m := range it.Methods() {
			if sel := g.prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name()); sel != nil {
				if fn := g.prog.MethodValue(sel); fn != nil {
					out = append(out, fn)
				}
			}
		}
	}
	return out
}

// storedTypes returns the types of the values a call of reflectStores
// stores, when the audit can tell each (valueTypes): Set's, Send's and
// TrySend's argument, SetMapIndex's key and element, Convert's receiver.
func (g *graph) storedTypes(common *ssa.CallCommon) ([]types.Type, bool) {
	vals, ok := storedArgs(common)
	if !ok {
		return nil, false
	}
	var out []types.Type
	for i, v := range vals {
		if path, ok := targetPath(common, i); ok && freshOf(v, common.Args[0], path, map[ssa.Value]bool{}) {
			continue // of the variable's own type: no type new to it
		}
		known, ok := g.valueTypes(v, map[ssa.Value]bool{})
		if !ok {
			return nil, false
		}
		out = append(out, known...)
	}
	return out, true
}

// storedArgs returns the reflect.Values a call of reflectStores stores:
// Set's, Send's and TrySend's argument, SetMapIndex's key and element,
// Convert's receiver; false for the others, and for a $thunk.
func storedArgs(common *ssa.CallCommon) ([]ssa.Value, bool) {
	if common == nil || common.IsInvoke() {
		return nil, false
	}
	callee := common.StaticCallee()
	if callee == nil {
		return nil, false
	}
	f, ok := callee.Object().(*types.Func)
	if !ok || callee.Signature.Recv() == nil && f.Signature().Recv() != nil {
		return nil, false // a $thunk: its receiver is an argument too, but keep it simple
	}
	var vals []ssa.Value
	switch args := common.Args; f.FullName() {
	case "(reflect.Value).Set", "(reflect.Value).Send", "(reflect.Value).TrySend":
		if len(args) == 2 {
			vals = args[1:]
		}
	case "(reflect.Value).SetMapIndex":
		if len(args) == 3 {
			vals = args[1:]
		}
	case "(reflect.Value).Convert":
		if len(args) == 2 {
			vals = args[:1]
		}
	}
	return vals, vals != nil
}

// valueTypes returns the types of the value a reflect.Value v holds, when
// the audit can tell: reflect.ValueOf(x) of an x it traces (dynTypes),
// and what Elem, Field, FieldByName, FieldByIndex, Index, MapIndex,
// Slice and Addr of such a Value give (the types these hold: honest
// merge sets a field from another struct's), through φ-nodes. A Value of
// an interface type holds what the audit does not see.
func (g *graph) valueTypes(v ssa.Value, seen map[ssa.Value]bool) ([]types.Type, bool) {
	if seen[v] {
		return nil, true
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Phi:
		var out []types.Type
		for _, e := range v.Edges {
			ts, ok := g.valueTypes(e, seen)
			if !ok {
				return nil, false
			}
			out = append(out, ts...)
		}
		return out, true
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil {
			return nil, false
		}
		f, ok := fn.Object().(*types.Func)
		if !ok {
			return nil, false
		}
		args := v.Call.Args
		switch name := f.FullName(); name {
		case "reflect.ValueOf":
			if len(args) != 1 {
				return nil, false
			}
			ts, ok := g.dynTypes(args[0])
			return ts, ok && !slices.ContainsFunc(ts, isInterface)
		case "(reflect.Value).Elem", "(reflect.Value).Field", "(reflect.Value).FieldByName",
			"(reflect.Value).FieldByIndex", "(reflect.Value).Index", "(reflect.Value).MapIndex",
			"(reflect.Value).Slice", "(reflect.Value).Slice3", "(reflect.Value).Addr":
			if len(args) == 0 || fn.Signature.Recv() == nil {
				return nil, false // a $thunk
			}
			ts, ok := g.valueTypes(args[0], seen)
			if !ok {
				return nil, false
			}
			var out []types.Type
			for _, t := range ts {
				switch name {
				case "(reflect.Value).Slice", "(reflect.Value).Slice3":
					out = append(out, t)
				case "(reflect.Value).Addr":
					out = append(out, types.NewPointer(t))
				default:
					out = append(out, heldTypes(t)...)
				}
			}
			return out, !slices.ContainsFunc(out, isInterface)
		}
	}
	return nil, false
}

// heldTypes returns the types a value of t holds one level down: what a
// pointer points to, fields, elements, keys.
func heldTypes(t types.Type) []types.Type {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return []types.Type{u.Elem()}
	case *types.Struct:
		var out []types.Type
		for f := range u.Fields() {
			out = append(out, f.Type())
		}
		return out
	case *types.Slice:
		return []types.Type{u.Elem()}
	case *types.Array:
		return []types.Type{u.Elem()}
	case *types.Map:
		return []types.Type{u.Key(), u.Elem()}
	case *types.Chan:
		return []types.Type{u.Elem()}
	}
	return nil
}

func isInterface(t types.Type) bool {
	_, ok := t.Underlying().(*types.Interface)
	return ok
}

// methodEdges adds edges from n to the methods of t, which was made into
// a value of interface type iface (nil for a value the registry is
// given): whoever receives it may call the methods iface lists and, after
// a type assertion, those of g.asserted; not the others, which only a
// static call (an edge of its own) or reflection by name (classified)
// reaches. With closure, the types a value of t holds (fields, elements,
// keys, pointers) are walked too: encoding/json, fmt and the other
// reflection-based callers reach them with reflect.Value.Interface and
// assert them to their interfaces, so their methods of g.asserted (on the
// type and its pointer, which is addressable there) are added. So are the
// parameter and result types of a func type, which reflect.Type's In and
// Out give to reflect.New.
func (g *graph) methodEdges(n *node, t types.Type, iface *types.Interface, pos token.Pos, closure bool) {
	// A basic type has no methods, but a named one (type name string)
	// may: String, MarshalJSON… (probe namedbasic).
	if b, ok := types.Unalias(t).(*types.Basic); ok && b.Kind() != types.UnsafePointer {
		return
	}
	seen := map[types.Type]bool{}
	var walk func(t types.Type, top bool)
	walk = func(t types.Type, top bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		if _, ok := t.Underlying().(*types.Interface); ok {
			return
		}
		for _, mt := range []types.Type{t, types.NewPointer(t)} {
			if _, isPtr := t.(*types.Pointer); isPtr && mt != t {
				continue
			}
			if top && mt != t && !closure {
				continue // an interface holding T has T's methods only
			}
			// With closure, *T too: reflect.New of the value's type
			// makes one, and its methods are asserted as any other.
			ms := g.prog.MethodSets.MethodSet(mt)
			reflected := g.reflectedMethods(mt)
			for i := range ms.Len() {
				sel := ms.At(i)
				name := sel.Obj().Name()
				key := methodKey(name, sel.Obj().Type())
				called := g.asserted[key] || reflected[key]
				if top && mt == t && iface != nil && !called {
					if m, _, _ := types.LookupFieldOrMethod(iface, false, nil, name); m != nil {
						called = true
					}
				}
				if !called {
					continue
				}
				if fn := g.prog.MethodValue(sel); fn != nil {
					n.out = append(n.out, edge{g.nodeOf(fn), pos})
				}
			}
		}
		if !closure {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			walk(u.Elem(), top)
		case *types.Struct:
			for f := range u.Fields() {
				walk(f.Type(), false)
			}
		case *types.Slice:
			walk(u.Elem(), false)
		case *types.Array:
			walk(u.Elem(), false)
		case *types.Map:
			walk(u.Key(), false)
			walk(u.Elem(), false)
		case *types.Chan:
			walk(u.Elem(), false)
		case *types.Signature:
			// A func type's parameters and results are types too:
			// reflect.Type's In and Out reach them, and reflect.New
			// makes a value of each.
			for _, tuple := range []*types.Tuple{u.Params(), u.Results()} {
				for v := range tuple.Variables() {
					walk(v.Type(), false)
				}
			}
		}
	}
	walk(t, true)
}

// templateEdges adds the edges of a template executed on data at pos: a
// template calls, by the names it holds, any exported method of the
// values data holds (fields, elements, keys, pointers, and what those
// methods and functions return). Data of a type not known at the call,
// or holding interface values, fails closed.
func (g *graph) templateEdges(n *node, data ssa.Value, pos token.Pos) {
	g.templateData(n, data, pos, map[ssa.Value]bool{})
}

// templateData adds the edges of the template data v (see
// templateEdges): a conversion's type's methods; for a map literal of
// interfaces made for the call (map[string]any{"name": s}), its keys'
// and each value's; for a parameter of a function whose calls are all the
// program's (a helper render(data any)), every argument's, charged to
// the caller that passes it, which runs the template through the helper.
func (g *graph) templateData(n *node, data ssa.Value, pos token.Pos, seen map[ssa.Value]bool) {
	if seen[data] {
		return
	}
	seen[data] = true
	switch d := data.(type) {
	case *ssa.Const:
		return // nil
	case *ssa.MakeInterface:
		if m, ok := d.X.(*ssa.MakeMap); ok && isInterface(m.Type().Underlying().(*types.Map).Elem()) {
			if vals, ok := literalMap(m, d); ok {
				g.exportedEdges(n, m.Type().Underlying().(*types.Map).Key(), pos, map[types.Type]bool{})
				for _, v := range vals {
					g.templateData(n, v, pos, seen)
				}
				return
			}
		}
		g.exportedEdges(n, d.X.Type(), pos, map[types.Type]bool{})
		return
	case *ssa.Parameter:
		if args, ok := g.arguments(d); ok && g.funcs != nil {
			// Each caller, which runs the template through the
			// helper, is charged with what it passes.
			for _, a := range args {
				if fn := a.Parent(); fn != nil {
					g.templateData(g.nodeOf(fn), a, pos, seen)
				} else {
					g.templateData(n, a, pos, seen)
				}
			}
			return
		}
	}
	n.out = append(n.out, edge{g.pseudo("template data of a type not known at the call", tool.Unsafe,
		"a template calls the methods of its data by name"), pos})
}

// literalMap returns the values put in the map m, when it is only
// updated and converted by conv (a literal made for a template's call).
func literalMap(m *ssa.MakeMap, conv *ssa.MakeInterface) ([]ssa.Value, bool) {
	var out []ssa.Value
	for _, r := range *m.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.MapUpdate:
			if r.Map != m || r.Key == m || r.Value == m {
				return nil, false
			}
			out = append(out, r.Value)
		case *ssa.MakeInterface:
			if r != conv {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// templateData returns the data argument of a call of fn with common, if
// fn executes a template: a function of templateDataArg, or a wrapper of
// one (the $bound function of a method value, the $thunk of a method
// expression, the promoted method of a type that embeds a template),
// which is the standard library's code and so not scanned for templates:
// the call that reaches the wrapper has the data. The data is nil when
// the call does not have it where a template's execution has it (fail
// closed, see templateEdges).
func templateData(fn *ssa.Function, common *ssa.CallCommon) (ssa.Value, bool) {
	// A wrapper's object is the method it wraps.
	m, ok := fn.Object().(*types.Func)
	if !ok {
		return nil, false
	}
	i, ok := templateDataArg[m.FullName()]
	if !ok {
		return nil, false
	}
	return templateArg(m, i, common), true
}

// dynamicTemplateData returns the data argument of a dynamic call that
// may execute a template: an invoke of a method with the name and
// signature of a template's execution, or a call of a function value of
// the type of its method value or of its method expression (whose
// receiver may be a type that embeds a template). It goes by the
// signature, not by VTA's callees: VTA does not follow a value through the
// standard library (a template kept in a context.Value, a sync.Map or an
// atomic.Value and asserted back), and the code that made the value has
// an edge to the execution but not to the methods of data it never sees.
func dynamicTemplateData(prog *ssa.Program, common *ssa.CallCommon) (ssa.Value, bool) {
	for _, key := range slices.Sorted(maps.Keys(templateDataArg)) {
		m := templateMethod(prog, key)
		if m != nil && templateShaped(m, common) {
			return templateArg(m, templateDataArg[key], common), true
		}
	}
	return nil, false
}

// templateMethod returns the method templateDataArg's key names, or nil
// when its package is not in the program, where no template of it runs.
func templateMethod(prog *ssa.Program, key string) *types.Func {
	recv, name, _ := strings.Cut(strings.TrimPrefix(key, "(*"), ").")
	dot := strings.LastIndex(recv, ".")
	p := prog.ImportedPackage(recv[:dot])
	if p == nil {
		return nil
	}
	var m *types.Func
	if tn, ok := p.Pkg.Scope().Lookup(recv[dot+1:]).(*types.TypeName); ok {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, p.Pkg, name)
		m, _ = obj.(*types.Func)
	}
	if m == nil || m.FullName() != key {
		panic("audit: templateDataArg names " + key + ", which package " + p.Pkg.Path() + " does not have")
	}
	return m
}

// templateShaped reports whether the dynamic call common may call
// template method m: as an invoke of it, through its method value, or
// through its method expression.
func templateShaped(m *types.Func, common *ssa.CallCommon) bool {
	sig := m.Signature() // types.Identical ignores its receiver
	if common.IsInvoke() {
		return common.Method.Name() == m.Name() && types.Identical(common.Method.Type(), sig)
	}
	cs := common.Signature()
	if types.Identical(cs, sig) {
		return true
	}
	params := cs.Params()
	if params.Len() != sig.Params().Len()+1 {
		return false
	}
	if obj, _, _ := types.LookupFieldOrMethod(params.At(0).Type(), false, m.Pkg(), m.Name()); obj != m {
		return false
	}
	rest := make([]*types.Var, 0, params.Len()-1)
	for i := 1; i < params.Len(); i++ {
		rest = append(rest, params.At(i))
	}
	return types.Identical(types.NewSignatureType(nil, nil, nil, types.NewTuple(rest...), cs.Results(), cs.Variadic()), sig)
}

// templateArg returns the argument of common that is the parameter of
// template method m whose index, the receiver being 0, is i. The
// receiver is an argument of a static call of the method and of its
// $thunk, not of an invoke or of a call of its $bound function: the
// index counts from the end.
func templateArg(m *types.Func, i int, common *ssa.CallCommon) ssa.Value {
	if j := i - 1 + len(common.Args) - m.Signature().Params().Len(); j >= 0 && j < len(common.Args) {
		return common.Args[j]
	}
	return nil
}

// exportedEdges adds edges to every exported method of t and *t and of
// the types t holds or its methods return; an interface among them fails
// closed.
func (g *graph) exportedEdges(n *node, t types.Type, pos token.Pos, seen map[types.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	if _, ok := t.Underlying().(*types.Interface); ok {
		n.out = append(n.out, edge{g.pseudo("template data holding an interface value", tool.Unsafe,
			"a template calls the methods of its data by name, and the audit does not know the values in an interface"), pos})
		return
	}
	for _, mt := range []types.Type{t, types.NewPointer(t)} {
		if _, isPtr := t.(*types.Pointer); isPtr && mt != t {
			continue
		}
		ms := g.prog.MethodSets.MethodSet(mt)
		for i := range ms.Len() {
			sel := ms.At(i)
			if !sel.Obj().Exported() {
				continue
			}
			if fn := g.prog.MethodValue(sel); fn != nil {
				n.out = append(n.out, edge{g.nodeOf(fn), pos})
			}
			g.resultEdges(n, sel.Obj().Type().(*types.Signature), pos, seen)
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		g.exportedEdges(n, u.Elem(), pos, seen)
	case *types.Struct:
		for f := range u.Fields() {
			g.exportedEdges(n, f.Type(), pos, seen)
		}
	case *types.Slice:
		g.exportedEdges(n, u.Elem(), pos, seen)
	case *types.Array:
		g.exportedEdges(n, u.Elem(), pos, seen)
	case *types.Map:
		g.exportedEdges(n, u.Key(), pos, seen)
		g.exportedEdges(n, u.Elem(), pos, seen)
	case *types.Chan:
		g.exportedEdges(n, u.Elem(), pos, seen)
	case *types.Signature:
		g.resultEdges(n, u, pos, seen)
	}
}

// resultEdges adds exportedEdges for the results of sig, but a last
// result of type error, which a template takes as the call's failure.
func (g *graph) resultEdges(n *node, sig *types.Signature, pos token.Pos, seen map[types.Type]bool) {
	res := sig.Results()
	for i := range res.Len() {
		t := res.At(i).Type()
		if i == res.Len()-1 && types.Identical(t, types.Universe.Lookup("error").Type()) {
			continue
		}
		g.exportedEdges(n, t, pos, seen)
	}
}

// scan adds the edges of fn's body to n.
func (g *graph) scan(n *node) {
	n.done = true
	fn := n.fn
	std := g.isStd(n.pkg)
	var sites map[ssa.CallInstruction][]*ssa.Function
	if g.dyn != nil && !std {
		if cn := g.dyn.Nodes[fn]; cn != nil {
			sites = map[ssa.CallInstruction][]*ssa.Function{}
			for _, e := range cn.Out {
				sites[e.Site] = append(sites[e.Site], e.Callee.Func)
			}
		}
	}
	var ops []*ssa.Value
	live := liveBlocks(fn)
	for _, b := range fn.Blocks {
		if !live[b.Index] {
			continue // under a constant false condition: if debug {…}
		}
		for _, instr := range b.Instrs {
			var skip ssa.Value
			if call, ok := instr.(ssa.CallInstruction); ok {
				common := call.Common()
				if callee := common.StaticCallee(); callee != nil && isPkgInit(callee) && callee.Pkg != fn.Pkg {
					// Each package's start-up is audited as its own
					// root; the standard library's is every program's.
					skip = common.Value
				} else if callee != nil {
					skip = common.Value
					key := funcKey(callee)
					if !(std && reflectCallers[n.pkg] && reflectCalls[key]) {
						n.out = append(n.out, edge{g.callTarget(callee, common.Args), call.Pos()})
					}
					if !std && g.isStd(fnPkgPath(callee)) {
						g.stdReads(n, callee, call.Pos())
					}
					if !std && g.reflected != nil && reflectStore(callee) {
						g.reflectStoreEdges(n, common, call.Pos())
					}
					if i, ok := registerStores[key]; ok && !std && g.reflected != nil && i < len(common.Args) {
						g.registerEdges(n, common.Args[i], call.Pos())
					}
					if data, ok := templateData(callee, common); ok && !std {
						g.templateEdges(n, data, call.Pos())
					}
					if !std && callee.Origin() != nil && g.isStd(fnPkgPath(callee)) {
						// A generic function of the standard library
						// (reflect.TypeFor[T], say) has no body here:
						// its type arguments reach reflection, where a
						// value of T or *T is made and asserted.
						for _, ta := range callee.TypeArgs() {
							g.methodEdges(n, types.NewPointer(ta), nil, call.Pos(), true)
						}
					}
				} else if b, ok := common.Value.(*ssa.Builtin); ok {
					// append, len…: no call of the program's; but the
					// builtins of package unsafe that make a slice, a
					// string or a pointer from a pointer and a length
					// the compiler does not check (see unsafeBuiltin).
					// As for conversions, cgo's generated code is not
					// the program's.
					if !std && unsafeBuiltin(b) && !g.generated[g.prog.Fset.Position(call.Pos()).Filename] {
						n.out = append(n.out, edge{g.pseudo("unsafe."+b.Name(), tool.Unsafe, "unsafe."+b.Name()+" reaches memory the type system does not bound"), call.Pos()})
					}
				} else if sites != nil && g.madeHereCall(common) {
					// Every value it calls is made, in this chain of
					// calls, by code that has the edge to it
					// (madeHereCall): a helper's call of its func
					// parameter, or of a method of its interface
					// parameter, charges each caller with its own.
				} else if sites != nil {
					// A value VTA cannot trace came through the
					// standard library, which calls what it is given:
					// the code that made the function value or the
					// interface has the edge to it (the operands below,
					// methodEdges), wherever it is called.
					for _, c := range sites[call] {
						n.out = append(n.out, edge{g.nodeOf(c), call.Pos()})
						if g.isStd(fnPkgPath(c)) {
							g.stdReads(n, c, call.Pos())
						}
					}
					if !std && g.reflected != nil {
						g.reflectFlowEdges(n, common, call.Pos())
						g.convEdges(n, common, call.Pos())
					}
					if len(sites[call]) == 0 && !g.stdMade(common.Value) {
						// Nothing the audit can name: sound for a tool
						// (whoever made the value has the edge), but
						// start-up code must not depend on that.
						n.out = append(n.out, edge{g.pseudo("call the audit cannot resolve", unresolved,
							"a call through a function value or an interface that VTA cannot resolve"), call.Pos()})
					}
				}
				if _, builtin := common.Value.(*ssa.Builtin); !std && g.dyn != nil && !builtin && common.StaticCallee() == nil {
					// A dynamic call that may execute a template: the
					// data's methods are called here, whatever VTA
					// resolved the call to.
					if data, ok := dynamicTemplateData(g.prog, common); ok {
						g.templateEdges(n, data, call.Pos())
					}
				}
			}
			if !std && g.dyn != nil {
				if it := assertedIface(instr); it != nil {
					g.assertEdges(n, it, instr)
				}
			}
			switch instr := instr.(type) {
			case *ssa.MakeInterface:
				n := g.maker(n, instr, nil) // the variables it is kept in, if only there
				pos := instr.Pos()
				if !std && startupCode(fn) {
					pos = sitePos(instr)
				}
				g.methodEdges(n, instr.X.Type(), ifaceOf(instr.Type()), pos, !std)
				if it := ifaceOf(instr.Type()); !std && g.reflected != nil && g.stdType(instr.X.Type()) && it != nil && it.Empty() {
					// A value of the standard library made into an
					// empty interface, whence the standard library's
					// reflection stores it into any interface of the
					// program it implements: a database/sql driver's
					// value, which Rows.Scan stores into the scanning
					// code's variable (probe sqlscan). One made into a
					// non-empty interface (an *os.File into io.Reader)
					// charges nothing more: one tool's interface would
					// charge every tool's files.
					for _, fn := range g.reflectedImpls(instr.X.Type()) {
						n.out = append(n.out, edge{g.nodeOf(fn), instr.Pos()})
					}
				}
				if sig, ok := instr.X.Type().(*types.Signature); ok && !std {
					// A function in an interface, as a template's
					// FuncMap holds it: the template calls the methods
					// of what it returns.
					g.resultEdges(n, sig, instr.Pos(), map[types.Type]bool{})
				}
			case *ssa.Convert:
				if !std && (isUnsafePointer(instr.Type()) || isUnsafePointer(instr.X.Type())) && !g.generated[g.prog.Fset.Position(instr.Pos()).Filename] {
					n.out = append(n.out, edge{g.pseudo("unsafe.Pointer", tool.Unsafe, "conversion through unsafe.Pointer"), instr.Pos()})
				}
			}
			ops = instr.Operands(ops[:0])
			for _, op := range ops {
				if op == nil || *op == nil || *op == skip {
					continue
				}
				switch v := (*op).(type) {
				case *ssa.Function:
					m := n
					pos := instr.Pos()
					if !std {
						m = g.maker(n, instr, op)
					}
					if !std && startupCode(fn) {
						pos = sitePos(instr)
					}
					m.out = append(m.out, edge{g.nodeOf(v), pos})
					if !std && g.isStd(fnPkgPath(v)) {
						g.stdReads(m, v, instr.Pos()) // a function value of the standard library
					}
					if !std && g.reflected != nil && reflectStore(v) {
						g.reflectStoreEdges(n, nil, instr.Pos()) // a method value or expression
					}
				case *ssa.Global:
					if g.isStd(v.Pkg.Pkg.Path()) {
						if std && v.String() == "os.Stderr" && panics(b) {
							// The standard library's message of a
							// broken invariant, printed as it panics
							// (go/printer's unsupported argument):
							// not a writing its callers do.
							continue
						}
						m := n
						if u, ok := instr.(*ssa.UnOp); ok && !std && u.Op == token.MUL {
							// What it holds, loaded only to be kept in
							// package variables of the program (var
							// diag io.Writer = os.Stderr): a use by
							// whoever uses those, not by the code that
							// keeps it there.
							m = g.maker(n, instr, nil)
						}
						m.out = append(m.out, edge{g.globalNode(v), instr.Pos()})
						if !std && g.summary != nil && g.summary.keeps.vars[v.String()] {
							// What the program kept in it (keptNode).
							m.out = append(m.out, edge{g.keptNode(v.String()), instr.Pos()})
						}
					} else if obj, ok := v.Object().(*types.Var); ok && g.linknamed[obj] {
						n.out = append(n.out, edge{g.pseudo("go:linkname variable", tool.Unsafe,
							"a variable //go:linkname names, which may be another package's (the runtime's)"), instr.Pos()})
					} else if why := g.asmSet[obj]; ok && why != "" {
						n.out = append(n.out, edge{g.pseudo("var "+v.String()+" (assembly)", tool.Unsafe, why), instr.Pos()})
					} else if g.dyn != nil && !g.writesOnly(instr, v) {
						// Its address kept in another variable (var
						// current = &defaults), or what it holds (var
						// current = orders), is a use by whoever uses
						// that one (probes globalptr, globalcopy).
						m := g.maker(n, instr, op)
						if u, ok := instr.(*ssa.UnOp); ok && m == n && u.Op == token.MUL {
							m = g.maker(n, instr, nil)
						}
						m.out = append(m.out, edge{g.progVar(v), instr.Pos()})
						if _, ok := instr.(*ssa.MakeClosure); ok {
							// Bound to a closure (lookup = table.Load):
							// whoever has the closure's edges uses the
							// variable (probe boundload).
							if c := g.maker(n, instr, nil); c != n {
								c.out = append(c.out, edge{g.progVar(v), instr.Pos()})
							}
						}
					}
				}
			}
		}
	}
}

// progVar returns the node of a package variable of the program: the
// function values and interfaces kept only in variables (see maker) are
// its edges, and every function that uses the variable, other than to
// store into it, has an edge to it.
func (g *graph) progVar(v *ssa.Global) *node {
	key := "var " + v.String()
	if n := g.nodes[key]; n != nil {
		return n
	}
	return g.add(&node{key: key, pkg: v.Pkg.Pkg.Path(), done: true})
}

// maker returns the node that makes the value of instr (op, when set, is
// the operand of instr that is a function value): n, or, when the value
// is only kept in package variables of the program (`var openFile =
// os.Open`, a map or slice of funcs, a struct of them, in an initializer
// or an init function), a node for them (progVar), which every function
// that uses one of them reaches. The code that keeps it there does not
// call it: a start-up that fills a table of functions reaches nothing,
// and a tool that only stores into the table is not charged with it.
// Several variables are joined by a node of their own.
func (g *graph) maker(n *node, instr ssa.Instruction, op *ssa.Value) *node {
	if g.dyn == nil {
		return n
	}
	vars := map[*ssa.Global]bool{}
	var ok bool
	if op != nil {
		ok = g.keptOnlyIn(instr, *op, vars, map[ssa.Value]bool{})
	} else if v, isVal := instr.(ssa.Value); isVal {
		ok = g.flowsOnlyInto(v, vars, map[ssa.Value]bool{})
	}
	if !ok {
		// Used here and also kept in package variables (f is called
		// and stored, hook = f): both this code and the variables'
		// users, who may hand it to the standard library that calls
		// it, have the edges (probe oncedo).
		also := map[*ssa.Global]bool{}
		if op != nil {
			g.alsoKeptIn(instr, *op, also, map[ssa.Value]bool{})
		} else if v, isVal := instr.(ssa.Value); isVal {
			g.alsoFlowsInto(v, also, map[ssa.Value]bool{})
		}
		if len(also) == 0 {
			return n
		}
		globals := slices.SortedFunc(maps.Keys(also), func(a, b *ssa.Global) int { return strings.Compare(a.String(), b.String()) })
		var names []string
		for _, v := range globals {
			names = append(names, v.String())
		}
		key := "values " + n.key + " also keeps in " + strings.Join(names, ", ")
		if m := g.nodes[key]; m != nil {
			return m
		}
		m := g.add(&node{key: key, pkg: n.pkg, done: true})
		n.out = append(n.out, edge{m, instr.Pos()})
		for _, v := range globals {
			g.progVar(v).out = append(g.progVar(v).out, edge{m, v.Pos()})
		}
		return m
	}
	if len(vars) == 0 {
		return n
	}
	globals := slices.SortedFunc(maps.Keys(vars), func(a, b *ssa.Global) int { return strings.Compare(a.String(), b.String()) })
	if len(globals) == 1 {
		return g.progVar(globals[0])
	}
	var names []string
	for _, v := range globals {
		names = append(names, v.String())
	}
	key := "values kept in " + strings.Join(names, ", ")
	if m := g.nodes[key]; m != nil {
		return m
	}
	m := g.add(&node{key: key, pkg: n.pkg, done: true})
	for _, v := range globals {
		g.progVar(v).out = append(g.progVar(v).out, edge{m, v.Pos()})
	}
	return m
}

// keptOnlyIn reports whether instr, with v as an operand, only keeps v in
// package variables of the program (added to vars): a store of it, a map
// update with it, a conversion or an interface made of it whose value is
// kept only there.
func (g *graph) keptOnlyIn(instr ssa.Instruction, v ssa.Value, vars map[*ssa.Global]bool, seen map[ssa.Value]bool) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Val == v && instr.Addr != v && g.heldIn(instr.Addr, vars, seen)
	case *ssa.Send, *ssa.Select:
		// Sent on a channel a package variable holds: whoever uses the
		// variable may receive it (probes chanonce, chanstringer).
		return g.sentIn(instr, v, vars)
	case *ssa.MapUpdate:
		return instr.Map != v && g.heldIn(instr.Map, vars, seen)
	case *ssa.MakeInterface, *ssa.ChangeType, *ssa.MakeClosure:
		if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn != v {
			return false // a bound variable: the closure's code may use it
		}
		return g.flowsOnlyInto(instr.(ssa.Value), vars, seen)
	case *ssa.Call:
		// A constructor or a wrapper given v, which only keeps it in
		// what it returns (var files = newLoader(os.ReadFile), var
		// defaults = sync.OnceValue(load)), whose result is kept only
		// there.
		common := instr.Common()
		if common.Value == v || common.IsInvoke() {
			return false
		}
		if b, ok := common.Value.(*ssa.Builtin); ok {
			// append keeps its arguments' elements in its result
			// (init() { lookups = append(lookups, os.Getenv) }).
			return b.Name() == "append" && g.flowsOnlyInto(instr, vars, seen)
		}
		callee := common.StaticCallee()
		for i, a := range common.Args {
			if a != v {
				continue
			}
			if g.keptByParam(callee, i, vars, seen) {
				continue // a registration helper: register(name, f) keeps f in a variable
			}
			if !g.onlyReturns(callee, i) {
				return false
			}
			if k, ok := g.keeperOf(callee); ok && k.inVar && !g.heldIn(common.Args[0], vars, seen) {
				return false // kept in the receiver, which must be a package variable of the program
			}
			if k, ok := g.keeperOf(callee); ok && k.recv && i > 0 && (!g.freshTemplate(common.Args[0]) || !g.flowsOnlyInto(common.Args[0], vars, seen)) {
				// Kept in the receiver too (t.Funcs(m)), which must be
				// made here and kept only there: one loaded from a
				// variable may be executed by whoever holds it
				// (probe startuptmpl).
				return false
			}
		}
		return g.flowsOnlyInto(instr, vars, seen)
	case *ssa.Extract:
		// A result of such a call (t, err := t.Parse(s)).
		return g.flowsOnlyInto(instr, vars, seen)
	}
	return false
}

// A keeper is a function of the standard library that keeps arguments it
// is given in what it returns, or ignores them, and calls nothing of them
// (no method, no function value): the function or the writer a start-up
// variable holds runs only when the variable's users call it.
type keeper struct {
	held    []int // the arguments the result may hold
	ignored []int // the arguments neither kept nor used but compared
	recv    bool  // held arguments are kept in the receiver too, which it returns
	inVar   bool  // held arguments are kept in the receiver, which must be a package variable
}

// keepers lists the standard library's keepers: wrappers that return a
// function calling their argument, constructors of loggers, encoders and
// buffers over a writer or a reader, and the steps of making a template
// with functions (template.Must(template.New(n).Funcs(m).Parse(s))).
var keepers = map[string]keeper{
	"sync.OnceFunc":                    {held: []int{0}},
	"sync.OnceValue":                   {held: []int{0}},
	"sync.OnceValues":                  {held: []int{0}},
	"log.New":                          {held: []int{0}},
	"log/slog.New":                     {held: []int{0}},
	"log/slog.NewJSONHandler":          {held: []int{0, 1}},
	"log/slog.NewTextHandler":          {held: []int{0, 1}},
	"bufio.NewReader":                  {held: []int{0}},
	"bufio.NewReaderSize":              {held: []int{0}},
	"bufio.NewWriter":                  {held: []int{0}},
	"bufio.NewWriterSize":              {held: []int{0}},
	"bufio.NewScanner":                 {held: []int{0}},
	"encoding/json.NewEncoder":         {held: []int{0}},
	"encoding/json.NewDecoder":         {held: []int{0}},
	"(*text/template.Template).Funcs":  {held: []int{0, 1}, recv: true},
	"(*html/template.Template).Funcs":  {held: []int{0, 1}, recv: true},
	"(*text/template.Template).Parse":  {held: []int{0}},
	"(*html/template.Template).Parse":  {held: []int{0}},
	"(*text/template.Template).Option": {held: []int{0}},
	"(*html/template.Template).Option": {held: []int{0}},
	"(*text/template.Template).Delims": {held: []int{0}},
	"(*html/template.Template).Delims": {held: []int{0}},
	"text/template.Must":               {held: []int{0}, ignored: []int{1}},
	"(*sync.Map).Store":                {held: []int{1, 2}, inVar: true},
	"html/template.Must":               {held: []int{0}, ignored: []int{1}},
}

// freshTemplate reports whether v is a template made by the call that returns
// it (template.New), or returned as the receiver of a keeper called on
// one (template.New(n).Funcs(m).Delims(l, r)).
func (g *graph) freshTemplate(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok || call.Call.IsInvoke() {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || !g.isStd(fnPkgPath(callee)) {
		return false
	}
	switch funcKey(callee) {
	case "text/template.New", "html/template.New":
		return true
	}
	k, ok := g.keeperOf(callee)
	return ok && k.recv && len(call.Call.Args) > 0 && g.freshTemplate(call.Call.Args[0])
}

// keeperOf returns the keeper fn is, if it is one.
func (g *graph) keeperOf(fn *ssa.Function) (keeper, bool) {
	if fn == nil || !g.isStd(fnPkgPath(fn)) {
		return keeper{}, false
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	k, ok := keepers[funcKey(fn)]
	return k, ok
}

// keptByParam reports whether fn, a function of the program called with
// v as its i-th argument, keeps its parameter only in package variables
// (added to vars) and does nothing else with it: a registration helper,
// func register(name string, f func(string) string) { lookups[name] = f }.
func (g *graph) keptByParam(fn *ssa.Function, i int, vars map[*ssa.Global]bool, seen map[ssa.Value]bool) bool {
	if fn == nil || g.isStd(fnPkgPath(fn)) || len(fn.Blocks) == 0 || i >= len(fn.Params) || genericBody(fn) {
		return false
	}
	p := fn.Params[i]
	refs := p.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	return g.flowsOnlyInto(p, vars, seen)
}

// onlyReturns reports whether fn, called, does nothing with its i-th
// argument but return it: directly, converted, in a closure, or in a
// struct it makes and returns without reading (`return &loader{load:
// f}`). A function of the standard library does so when it is a keeper
// that holds or ignores the argument.
func (g *graph) onlyReturns(fn *ssa.Function, i int) bool {
	if fn == nil {
		return false
	}
	if k, ok := g.keeperOf(fn); ok {
		return slices.Contains(k.held, i) || slices.Contains(k.ignored, i)
	}
	if g.isStd(fnPkgPath(fn)) || len(fn.Blocks) == 0 || i >= len(fn.Params) || genericBody(fn) {
		return false
	}
	return returnedOnly(fn.Params[i], map[ssa.Value]bool{})
}

// returnedOnly reports whether every use of v returns it (see
// onlyReturns).
func returnedOnly(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Return:
		case *ssa.MakeInterface, *ssa.ChangeType:
			if !returnedOnly(r.(ssa.Value), seen) {
				return false
			}
		case *ssa.MakeClosure:
			if r.Fn == v || !returnedOnly(r, seen) {
				return false
			}
		case *ssa.Store:
			if r.Val != v {
				return false
			}
			if cell, ok := r.Addr.(*ssa.Alloc); ok {
				// The cell of a variable closures capture: only
				// bound to closures that are returned.
				if !returnedCell(cell, seen) {
					return false
				}
				continue
			}
			// Into a field of a struct made here, which is returned
			// and never read.
			fa, ok := r.Addr.(*ssa.FieldAddr)
			if !ok || !written(fa) {
				return false
			}
			a, ok := fa.X.(*ssa.Alloc)
			if !ok || !returnedStruct(a, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// returnedCell reports whether the variable whose cell is a is only
// stored into and bound to closures that are returned (see onlyReturns):
// the function does not load it.
func returnedCell(a *ssa.Alloc, seen map[ssa.Value]bool) bool {
	if seen[a] {
		return true
	}
	seen[a] = true
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != a || r.Val == a {
				return false
			}
		case *ssa.MakeClosure:
			if r.Fn == a || !returnedOnly(r, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// returnedStruct reports whether the struct a is only written through
// its fields and returned, by pointer or loaded whole.
func returnedStruct(a *ssa.Alloc, seen map[ssa.Value]bool) bool {
	if seen[a] {
		return true
	}
	seen[a] = true
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			if !written(r) {
				return false
			}
		case *ssa.Return:
		case *ssa.UnOp:
			if r.Op != token.MUL || !returnedOnly(r, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// flowsOnlyInto reports whether every use of v keeps it in package
// variables of the program (see keptOnlyIn).
func (g *graph) flowsOnlyInto(v ssa.Value, vars map[*ssa.Global]bool, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if !g.keptOnlyIn(r, v, vars, seen) {
			return false
		}
	}
	return true
}

// alsoFlowsInto adds to vars the package variables of the program v is
// kept in, directly or as a conversion, a closure or a φ of it, whatever
// else uses it (alsoKeptIn).
func (g *graph) alsoFlowsInto(v ssa.Value, vars map[*ssa.Global]bool, seen map[ssa.Value]bool) {
	if seen[v] {
		return
	}
	seen[v] = true
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			g.alsoKeptIn(r, v, vars, seen)
		}
	}
}

// alsoKeptIn adds to vars the package variables of the program instr,
// with v as an operand, keeps v in (keptOnlyIn's stores and map updates,
// and what a conversion, a closure or a φ of v flows into).
func (g *graph) alsoKeptIn(instr ssa.Instruction, v ssa.Value, vars map[*ssa.Global]bool, seen map[ssa.Value]bool) {
	held := map[*ssa.Global]bool{}
	switch instr := instr.(type) {
	case *ssa.Store:
		if instr.Val == v && instr.Addr != v && g.heldIn(instr.Addr, held, map[ssa.Value]bool{}) {
			maps.Copy(vars, held)
		}
	case *ssa.MapUpdate:
		if instr.Map != v && g.heldIn(instr.Map, held, map[ssa.Value]bool{}) {
			maps.Copy(vars, held)
		}
	case *ssa.Send, *ssa.Select:
		if g.sentIn(instr, v, held) {
			maps.Copy(vars, held)
		}
	case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.Phi:
		g.alsoFlowsInto(instr.(ssa.Value), vars, seen)
	case *ssa.MakeClosure:
		if instr.Fn == v {
			g.alsoFlowsInto(instr, vars, seen)
		}
	}
}

// sentIn reports whether instr, a send or a select statement, only sends
// v, on channels the program's package variables hold (added to vars).
func (g *graph) sentIn(instr ssa.Instruction, v ssa.Value, vars map[*ssa.Global]bool) bool {
	var chans []ssa.Value
	switch instr := instr.(type) {
	case *ssa.Send:
		if instr.X != v || instr.Chan == v {
			return false
		}
		chans = append(chans, instr.Chan)
	case *ssa.Select:
		for _, st := range instr.States {
			if st.Chan == v {
				return false
			}
			if st.Dir == types.SendOnly && st.Send == v {
				chans = append(chans, st.Chan)
			}
		}
	}
	for _, c := range chans {
		u, ok := c.(*ssa.UnOp)
		if !ok || u.Op != token.MUL {
			return false
		}
		gv, ok := u.X.(*ssa.Global)
		if !ok || !g.heldIn(gv, vars, map[ssa.Value]bool{}) {
			return false
		}
	}
	return len(chans) > 0
}

// heldIn reports whether what addr (an address, or a map) holds is held
// only by package variables of the program: the variable itself, a field
// or an element of one (of an array or a struct it is, not of what it
// points to), or a composite value made here (a new slice, array, struct
// or map) that is itself kept only in them and whose elements nothing
// reads back.
func (g *graph) heldIn(addr ssa.Value, vars map[*ssa.Global]bool, seen map[ssa.Value]bool) bool {
	switch a := addr.(type) {
	case *ssa.Global:
		// Not one of the standard library, whose code may call what it
		// holds, nor one a directive gives another name, nor one whose
		// address the program hands on (addrEscapes).
		obj, _ := a.Object().(*types.Var)
		if a.Pkg == nil || g.isStd(a.Pkg.Pkg.Path()) || obj == nil || g.linknamed[obj] || g.asmSet[obj] != "" || g.addrEscapes(a) {
			return false
		}
		vars[a] = true
		return true
	case *ssa.FieldAddr:
		// A field or an element of the variable itself, not of what a
		// pointer it holds points to, which others may hold too.
		return written(a) && g.heldIn(a.X, vars, seen)
	case *ssa.IndexAddr:
		if _, ok := a.X.Type().Underlying().(*types.Slice); ok {
			return false // the slice's array, which others may hold
		}
		return written(a) && g.heldIn(a.X, vars, seen)
	case *ssa.UnOp:
		// The map a variable holds (an init function's
		// handlers["x"] = f), when the variable only ever holds maps
		// the program makes there.
		v, ok := a.X.(*ssa.Global)
		if !ok || a.Op != token.MUL || !g.freshMaps(v) || !g.heldIn(v, vars, seen) {
			return false
		}
		// The variables that hold the same maps: whoever uses one
		// of them finds what was put through v (probe globalshared).
		for _, w := range g.sharers[v] {
			if !g.heldIn(w, vars, seen) {
				return false
			}
		}
		return true
	case *ssa.Alloc, *ssa.MakeMap:
		return g.compositeKept(a, vars, seen)
	case *ssa.Slice:
		if _, ok := a.X.(*ssa.Alloc); ok {
			return g.compositeKept(a.X, vars, seen) && g.flowsOnlyInto(a, vars, seen)
		}
	}
	return false
}

// addrEscapes reports whether the address of the program's variable v,
// or of a field or element of it, goes anywhere but into loads, stores,
// the calls of the standard library (whose keeping the summary knows),
// other variables of the program, and closures that are only called or
// kept only in package variables (whose users have v's edges, see the
// scan): sent on a channel, stored, converted, given to a
// function of the program. Whoever gets it uses v without naming it, so
// what v holds is not only kept there (probe chanaddr).
func (g *graph) addrEscapes(v *ssa.Global) bool {
	if g.escaping == nil {
		// Asked again while indexing (heldIn, for a closure kept in a
		// variable): none yet; indexEscapes follows such variables.
		g.escaping = map[*ssa.Global]bool{}
		g.escaping = g.indexEscapes()
	}
	return g.escaping[v]
}

// indexEscapes finds, in one pass over the program's code, the variables
// whose address escapes (addrEscapes).
func (g *graph) indexEscapes() map[*ssa.Global]bool {
	esc := map[*ssa.Global]bool{}
	// keptIn holds, for each variable whose address is kept in other
	// variables of the program, those: it escapes when one of them does.
	keptIn := map[*ssa.Global][]*ssa.Global{}
	var root *ssa.Global
	var check func(addr ssa.Value, instr ssa.Instruction, depth int) bool
	check = func(addr ssa.Value, instr ssa.Instruction, depth int) bool {
		switch r := instr.(type) {
		case *ssa.DebugRef, *ssa.UnOp:
			return false
		case *ssa.Store:
			if r.Val != addr {
				return false
			}
			// Kept in another variable of the program (var current =
			// &defaults): a use by whoever uses that one (probe
			// globalptr), unless its address escapes in turn.
			w := varOf(r.Addr)
			if w == nil || !g.traceable(w) {
				return true
			}
			keptIn[root] = append(keptIn[root], w)
			return false
		case *ssa.FieldAddr, *ssa.IndexAddr:
			if depth > 4 {
				return true
			}
			for _, rr := range *r.(ssa.Value).Referrers() {
				if check(r.(ssa.Value), rr, depth+1) {
					return true
				}
			}
			return false
		case *ssa.MakeClosure:
			// A bound method's closure only called where it is made,
			// or kept only in package variables, whose users have the
			// variable's edges (see the scan).
			if r.Fn == addr || g.notKept(r, map[ssa.Value]bool{}) {
				return false
			}
			vars := map[*ssa.Global]bool{}
			if !g.flowsOnlyInto(r, vars, map[ssa.Value]bool{}) || len(vars) == 0 {
				return true
			}
			for w := range vars {
				keptIn[root] = append(keptIn[root], w)
			}
			return false
		case ssa.CallInstruction:
			common := r.Common()
			if common.Value == addr {
				return true
			}
			callee := common.StaticCallee()
			return callee == nil || !g.isStd(fnPkgPath(callee))
		}
		return true
	}
	var ops []*ssa.Value
	for fn := range g.callSites().all {
		if g.isStd(fnPkgPath(fn)) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					if v, ok := (*op).(*ssa.Global); ok && !esc[v] {
						root = v
						if check(v, instr, 0) {
							esc[v] = true
						}
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for v, ws := range keptIn {
			if !esc[v] && slices.ContainsFunc(ws, func(w *ssa.Global) bool { return esc[w] }) {
				esc[v], changed = true, true
			}
		}
	}
	return esc
}

// varOf returns the program's variable an address is of: the variable,
// or a field or element of it (not of what a pointer it holds points
// to); nil for any other.
func varOf(addr ssa.Value) *ssa.Global {
	v, _ := addrRoot(addr, false).(*ssa.Global)
	return v
}

// written reports whether an address of a field or element is only
// stored into.
func written(addr ssa.Value) bool {
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if st, ok := r.(*ssa.Store); !ok || st.Addr != addr || st.Val == addr {
			return false
		}
	}
	return true
}

// compositeKept reports whether a value made here (an allocation or a
// map) is only written into (stores through its fields and elements, map
// updates) and kept in package variables of the program (stored into
// one, or sliced, converted or loaded whole into a value that is).
func (g *graph) compositeKept(c ssa.Value, vars map[*ssa.Global]bool, seen map[ssa.Value]bool) bool {
	if seen[c] {
		return true
	}
	seen[c] = true
	refs := c.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			if !written(r) {
				return false
			}
		case *ssa.IndexAddr:
			if !written(r) {
				return false
			}
		case *ssa.MapUpdate:
			if r.Map != c || r.Key == c || r.Value == c {
				return false
			}
		case *ssa.Slice:
			if !g.flowsOnlyInto(r, vars, seen) {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || !g.flowsOnlyInto(r, vars, seen) {
				return false
			}
		default:
			if !g.keptOnlyIn(r, c, vars, seen) {
				return false
			}
		}
	}
	return true
}

// writesOnly reports whether instr uses the program's variable v only to
// store into it: a store to it, or to a field or element of it, or an
// update of the map it holds when it only ever holds maps the program
// makes (freshMaps).
func (g *graph) writesOnly(instr ssa.Instruction, v *ssa.Global) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Addr == v && instr.Val != v
	case *ssa.FieldAddr:
		return instr.X == v && written(instr)
	case *ssa.IndexAddr:
		return instr.X == v && written(instr)
	case *ssa.Call:
		// A keeper that stores into it (lookups.Store(k, f), a
		// sync.Map): its other arguments are not v.
		k, ok := g.keeperOf(instr.Call.StaticCallee())
		if !ok || !k.inVar || len(instr.Call.Args) == 0 || instr.Call.Args[0] != v {
			return false
		}
		for _, a := range instr.Call.Args[1:] {
			if a == v {
				return false
			}
		}
		return true
	case *ssa.UnOp:
		if instr.Op != token.MUL || instr.X != v || !g.freshMaps(v) {
			return false
		}
		refs := instr.Referrers()
		if refs == nil {
			return false
		}
		for _, r := range *refs {
			if mu, ok := r.(*ssa.MapUpdate); !ok || mu.Map != instr || mu.Key == instr || mu.Value == instr {
				return false
			}
		}
		return true
	}
	return false
}

// freshMaps reports whether the program's variable v is a map that only
// ever holds maps made by the program's code where it is stored (or
// nil), and whose address is never taken: no other variable, nor the
// standard library, holds the map it holds unless it was loaded from v,
// which is a use of v, or the map was stored into it where it was made
// (g.sharers, whose uses heldIn counts too).
func (g *graph) freshMaps(v *ssa.Global) bool {
	if ok, done := g.fresh[v]; done {
		return ok
	}
	if g.fresh == nil {
		g.fresh = map[*ssa.Global]bool{}
	}
	g.fresh[v] = false
	if _, ok := v.Type().(*types.Pointer).Elem().Underlying().(*types.Map); !ok {
		return false
	}
	var (
		ops     []*ssa.Value
		sharers []*ssa.Global
	)
	for fn := range g.callSites().all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil || *op != ssa.Value(v) {
						continue
					}
					switch instr := instr.(type) {
					case *ssa.UnOp:
						if instr.Op != token.MUL {
							return false
						}
					case *ssa.Store:
						if instr.Addr != v {
							return false // its address, stored
						}
						if mm, ok := instr.Val.(*ssa.MakeMap); ok {
							others, ok := otherHolders(mm, v)
							if !ok {
								return false // the map held elsewhere too
							}
							sharers = append(sharers, others...)
						} else if c, ok := instr.Val.(*ssa.Const); !ok || !c.IsNil() {
							return false
						}
					default:
						return false // its address, passed or converted
					}
				}
			}
		}
	}
	g.fresh[v] = true
	if g.sharers == nil {
		g.sharers = map[*ssa.Global][]*ssa.Global{}
	}
	g.sharers[v] = sharers
	return true
}

// otherHolders returns the variables other than v that the map mm is
// stored into, when it is only filled (map updates with other values)
// and stored into variables: m := make(…); orders = m; lookup = m. Any
// other use (an argument, a field, a return) is not ok.
func otherHolders(mm *ssa.MakeMap, v *ssa.Global) ([]*ssa.Global, bool) {
	refs := mm.Referrers()
	if refs == nil {
		return nil, false
	}
	var out []*ssa.Global
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.MapUpdate:
			if r.Map != mm || r.Key == mm || r.Value == mm {
				return nil, false
			}
		case *ssa.Store:
			w, ok := r.Addr.(*ssa.Global)
			if !ok || r.Val != mm {
				return nil, false
			}
			if w != v {
				out = append(out, w)
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// unsafeBuiltin reports whether b is a builtin of package unsafe that
// reaches memory the type system does not bound, without a conversion
// through unsafe.Pointer (which scan classifies on its own):
// unsafe.Slice and unsafe.String take a typed pointer and any length, so
// `unsafe.Slice(&a[0], n)` reads and writes past a's end;
// unsafe.SliceData of an empty slice is the address of the runtime's
// shared zero-size object (runtime.zerobase, 8 bytes) typed as an element
// of any size, so writing through it overwrites the runtime's data; and
// unsafe.StringData gives a writable pointer into a string's bytes, which
// the runtime takes as immutable (read-only memory for a literal, shared
// for a map key). unsafe.Add is not among them: it returns an
// unsafe.Pointer, of no use without a conversion.
func unsafeBuiltin(b *ssa.Builtin) bool {
	// SSA names a builtin without its package, and its Object finds
	// only the universe's (append, len…), whose names are not
	// capitalised: a capitalised name without an object is unsafe's.
	if b.Object() != nil {
		return false
	}
	switch b.Name() {
	case "Slice", "String", "SliceData", "StringData":
		return true
	}
	return false
}

// stdMade reports whether v is what a call of the standard library
// returned: its summary has the edges of the values it makes (a
// reflect.Type from reflect.TypeFor, an io.Reader from a constructor), so
// a call through it is bounded.
func (g *graph) stdMade(v ssa.Value) bool {
	if e, ok := v.(*ssa.Extract); ok {
		v = e.Tuple
	}
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	if callee := c.Call.StaticCallee(); callee != nil {
		return g.isStd(fnPkgPath(callee))
	}
	// A method of a value the standard library made is the standard
	// library's, and so is what it returns.
	return c.Call.IsInvoke() && g.stdMade(c.Call.Value)
}

// ifaceOf returns the interface t is.
func ifaceOf(t types.Type) *types.Interface {
	it, _ := t.Underlying().(*types.Interface)
	return it
}

func isPkgInit(fn *ssa.Function) bool {
	return fn.Synthetic == "package initializer"
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// ruled reports whether the audit's rules by name may apply to package
// path: one of the standard library, or of the genuine golang.org/x/sys
// (a module replaced by a directory or vendored may have any path, probe
// syscpu of cmd/toolgen).
func (g *graph) ruled(path string) bool {
	return g.isStd(path) || g.xsys[path]
}

// callTarget returns the node a static call of callee with args reaches:
// opens and raw system calls are classified by their constant arguments.
func (g *graph) callTarget(callee *ssa.Function, args []ssa.Value) *node {
	key := funcKey(callee)
	ruled := g.ruled(fnPkgPath(callee))
	if i, ok := openFlagArg[key]; ok && ruled && i < len(args) {
		if c, ok := args[i].(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
			flags, _ := constant.Int64Val(c.Value)
			switch caps := openCaps(flags); caps {
			case tool.ReadFiles:
				return g.pseudo("open read-only", caps, "open with read-only constant flags")
			case tool.WriteFiles:
				return g.pseudo("open write-only", caps, "open with write-only constant flags")
			default:
				return g.pseudo("open for reading and writing", caps, "open with constant flags that read and write")
			}
		}
		return g.pseudo("open with computed flags", tool.ReadFiles|tool.WriteFiles, "open with flags not known at generate time")
	}
	if i, ok := sourceArg[key]; ok && ruled && i[1] < len(args) && textValue(args[i[0]]) {
		if mode, ok := constArg(args[i[1]]); ok && mode&parserTrace == 0 {
			return g.pseudo(key+" of a text", safe, "parses the text it is given, reads no file, prints no trace")
		}
	}
	if i, ok := fcntlCmdArg[key]; ok && ruled {
		return g.fcntlTarget(args, i)
	}
	if i, ok := mmapProtArg[key]; ok && ruled && i+1 < len(args) {
		return g.mmapTarget(args[i], args[i+1])
	}
	if i, ok := rawSyscallFuncs[key]; ok && ruled && i < len(args) {
		if c, ok := args[i].(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
			num, _ := constant.Int64Val(c.Value)
			name, known := g.sysNames[num]
			if !known {
				name = c.Value.ExactString()
			}
			if name == "IOCTL" {
				return g.ioctlTarget(args, i+2)
			}
			if name == "FCNTL" {
				return g.fcntlTarget(args, i+2)
			}
			if name == "MMAP" && i+4 < len(args) {
				return g.mmapTarget(args[i+3], args[i+4])
			}
			if caps, ok := sysRules[name]; ok {
				return g.pseudo("system call "+name, caps, "system call "+name)
			}
			return g.pseudo("system call "+name, tool.Unsafe, "unclassified system call "+name)
		}
		return g.pseudo("system call with computed number", tool.Unsafe, "raw system call with a number not known at generate time")
	}
	return g.nodeOf(callee)
}

// sitePos returns the position of instr, or, for an instruction without
// one (an implicit conversion, an element of a composite literal), of
// the first value it is part of or used by that has one: so that a
// start-up site (a package variable's initializer) is reported at its
// line.
func sitePos(instr ssa.Instruction) token.Pos {
	seen := map[ssa.Instruction]bool{}
	work := []ssa.Instruction{instr}
	for len(work) > 0 && len(seen) < 64 {
		instr := work[0]
		work = work[1:]
		if instr == nil || seen[instr] {
			continue
		}
		seen[instr] = true
		if pos := instr.Pos(); pos.IsValid() {
			return pos
		}
		add := func(v ssa.Value) {
			if i, ok := v.(ssa.Instruction); ok {
				work = append(work, i)
			}
		}
		switch i := instr.(type) {
		case *ssa.MapUpdate:
			add(i.Map)
		case *ssa.Store:
			add(i.Addr)
		case *ssa.IndexAddr:
			add(i.X)
		case *ssa.FieldAddr:
			add(i.X)
		}
		if v, ok := instr.(ssa.Value); ok {
			if refs := v.Referrers(); refs != nil {
				work = append(work, *refs...)
			}
		}
	}
	return token.NoPos
}

// liveBlocks returns which of fn's blocks may run, by index: those
// reached from its entry and its recover block, following only the
// branch a constant condition takes.
func liveBlocks(fn *ssa.Function) []bool {
	live := make([]bool, len(fn.Blocks))
	var work []*ssa.BasicBlock
	if len(fn.Blocks) > 0 {
		work = append(work, fn.Blocks[0])
	}
	if fn.Recover != nil {
		work = append(work, fn.Recover)
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if live[b.Index] {
			continue
		}
		live[b.Index] = true
		succs := b.Succs
		if len(b.Instrs) > 0 {
			if cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
				if c, ok := cond.Cond.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool && len(succs) == 2 {
					if constant.BoolVal(c.Value) {
						succs = succs[:1]
					} else {
						succs = succs[1:]
					}
				}
			}
		}
		work = append(work, succs...)
	}
	return live
}

// panics reports whether b ends in a call of panic (not the one SSA puts
// after a select without cases, which blocks forever).
func panics(b *ssa.BasicBlock) bool {
	p, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	return ok && p.Pos().IsValid()
}

// textValue reports whether v is a string or a []byte made into an
// interface.
func textValue(v ssa.Value) bool {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		return false
	}
	switch t := mi.X.Type().Underlying().(type) {
	case *types.Basic:
		return t.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := t.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// ioctlTarget classifies an ioctl(2) by its request, args[i]: a known
// harmless constant is safe, anything else (TIOCSTI pushes keystrokes into
// the terminal) Unsafe.
func (g *graph) ioctlTarget(args []ssa.Value, i int) *node {
	if i < len(args) {
		if c, ok := constArg(args[i]); ok {
			if name, ok := ioctlSafe[c]; ok {
				return g.pseudo("system call IOCTL "+name, safe, "ioctl "+name+", which only reads")
			}
			return g.pseudo(fmt.Sprintf("system call IOCTL %#x", c), tool.Unsafe, "ioctl with a request not known to be harmless")
		}
	}
	return g.pseudo("system call IOCTL with computed request", tool.Unsafe, "ioctl with a request not known at generate time")
}

// fcntlTarget classifies an fcntl(2) by its command, args[i]: F_DUPFD
// and F_DUPFD_CLOEXEC put a descriptor the tool may not have opened at a
// number it may hold as an *os.File (probe fdfcntl), and read and write
// files as os.NewFile does; any other constant command is harmless, and
// a command not known at generate time is taken as a duplication.
func (g *graph) fcntlTarget(args []ssa.Value, i int) *node {
	if i < len(args) {
		if c, ok := constArg(args[i]); ok {
			if fcntlDup[c] {
				return g.pseudo("system call FCNTL F_DUPFD", tool.ReadFiles|tool.WriteFiles, "fcntl F_DUPFD of a descriptor by its number")
			}
			return g.pseudo("system call FCNTL", safe, "fcntl with a command that does not duplicate")
		}
	}
	return g.pseudo("system call FCNTL with computed command", tool.ReadFiles|tool.WriteFiles, "fcntl with a command not known at generate time, which may duplicate a descriptor")
}

// mmapTarget classifies an mmap(2) by its protection and flags: an
// anonymous mapping is memory, a mapping of a descriptor (one the tool
// may not have opened, probe fdmmap) reads the file and, shared and
// writable, writes it; a fixed mapping replaces the process's memory at
// an address, and flags not known at generate time may do any of these.
func (g *graph) mmapTarget(prot, flags ssa.Value) *node {
	f, ok := constArg(flags)
	switch {
	case !ok:
		return g.pseudo("system call MMAP with computed flags", tool.ReadFiles|tool.WriteFiles|tool.Unsafe, "mmap with flags not known at generate time")
	case f&mmapFixed != 0:
		return g.pseudo("system call MMAP fixed", tool.Unsafe, "mmap at a fixed address, over the process's memory")
	case f&mmapAnon != 0:
		return g.pseudo("system call MMAP anonymous", safe, "mmap of memory")
	}
	if p, ok := constArg(prot); ok && p&protWrite == 0 || f&mmapType == mmapPrivate {
		return g.pseudo("system call MMAP of a file", tool.ReadFiles, "mmap of a descriptor, which the mapping reads")
	}
	return g.pseudo("system call MMAP of a file, shared and writable", tool.ReadFiles|tool.WriteFiles, "mmap of a descriptor, shared and writable")
}

// constArg returns the value of v when it is an integer constant, through
// conversions.
func constArg(v ssa.Value) (int64, bool) {
	for {
		cv, ok := v.(*ssa.Convert)
		if !ok {
			break
		}
		v = cv.X
	}
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	n, ok := constant.Int64Val(c.Value)
	if !ok {
		u, _ := constant.Uint64Val(c.Value)
		n = int64(u)
	}
	return n, true
}

// build scans every queued function until the graph is closed, then
// computes each node's capabilities and shortest paths.
func (g *graph) build() {
	for len(g.queue) > 0 {
		n := g.queue[len(g.queue)-1]
		g.queue = g.queue[:len(g.queue)-1]
		if !n.done {
			g.scan(n)
		}
	}
	// Sorted, so that ties between shortest paths break the same way
	// every run.
	slices.SortStableFunc(g.list, func(a, b *node) int { return strings.Compare(a.key, b.key) })
	for _, n := range g.list {
		for _, e := range n.out {
			e.to.in = append(e.to.in, n)
		}
	}
	g.solve()
}

// solve computes caps to a fixed point, then the shortest path to each
// capability's nearest source.
func (g *graph) solve() {
	work := make([]*node, 0, len(g.list))
	queued := map[*node]bool{}
	for _, n := range g.list {
		if n.boundary {
			n.caps = n.own
			continue
		}
		work = append(work, n)
		queued[n] = true
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		queued[n] = false
		var u tool.Capability
		for _, e := range n.out {
			u |= e.to.caps
		}
		if n.pkgRule && u != 0 {
			// A capability rule is a floor, not a mask: the files,
			// environment and programs the package's function reaches
			// beyond it count ((net/http.Dir).Open reads files); its
			// own reads are classified by name (funcRules).
			if n.pkgMask {
				u = n.pkgCaps
			} else {
				u = n.pkgCaps | u&ruleAdds
			}
		}
		if u == n.caps {
			continue
		}
		n.caps = u
		for _, p := range n.in {
			if !p.boundary && !queued[p] {
				queued[p] = true
				work = append(work, p)
			}
		}
	}
	for b := range nbits {
		bit := tool.Capability(1) << b
		var q []*node
		for _, n := range g.list {
			if n.caps&bit != 0 && (n.boundary || n.pkgRule && n.pkgCaps&bit != 0) {
				n.dist[b] = 0
				q = append(q, n)
			}
		}
		for len(q) > 0 {
			n := q[0]
			q = q[1:]
			for _, p := range n.in {
				if p.boundary || p.pkgRule && p.pkgCaps&bit != 0 || p.caps&bit == 0 || p.dist[b] >= 0 {
					continue
				}
				for i, e := range p.out {
					if e.to == n {
						p.next[b] = int32(i)
						break
					}
				}
				p.dist[b] = n.dist[b] + 1
				q = append(q, p)
			}
		}
	}
}

// step is one function on a path, with the position where it calls (or
// makes the value of) the next one.
type step struct {
	n   *node
	pos token.Pos
}

// path follows the shortest path from n to capability bit b.
func (g *graph) path(n *node, b int) []step {
	var out []step
	for n != nil && n.dist[b] >= 0 {
		if n.dist[b] == 0 {
			out = append(out, step{n: n})
			break
		}
		e := n.out[n.next[b]]
		out = append(out, step{n: n, pos: e.pos})
		n = e.to
	}
	return out
}

// capBits lists the bits of c.
func capBits(c tool.Capability) []int {
	var out []int
	for c != 0 {
		b := bits.TrailingZeros64(uint64(c))
		out = append(out, b)
		c &^= 1 << b
	}
	return out
}

// typeParts calls visit with each type t is made of: the element of a
// pointer, slice, array or channel, a map's key and element, a struct's
// fields, a signature's parameters and results. An interface's methods
// are not among them.
func typeParts(t types.Type, visit func(types.Type)) {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		visit(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			visit(f.Type())
		}
	case *types.Slice:
		visit(u.Elem())
	case *types.Array:
		visit(u.Elem())
	case *types.Map:
		visit(u.Key())
		visit(u.Elem())
	case *types.Chan:
		visit(u.Elem())
	case *types.Signature:
		for _, tuple := range []*types.Tuple{u.Params(), u.Results()} {
			for v := range tuple.Variables() {
				visit(v.Type())
			}
		}
	}
}
