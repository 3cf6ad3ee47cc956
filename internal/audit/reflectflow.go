package audit

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// reflectFlow holds what the program's reflective stores put into memory
// where VTA, which does not model package reflect, does not see it: a
// value one tool stores by reflection into a field every tool shares,
// whose method or function another tool's dynamic call runs (probes
// pkgvarreflect, pkgvarreflectfn). The code that made the value has its
// edges, but that code is not in the caller's chain.
//
// Of a function value the audit cannot trace, every function of its type
// whose value the program takes counts. Of other values, only those the
// audit traces are held here: a store of a value it cannot trace charges
// the storing code with the methods of every type reflection reaches
// (reflectStoreEdges); charging every dynamic call of the program with
// them too would charge every tool of a program that decodes YAML with
// everything.
type reflectFlow struct {
	// types holds the types of the stored values.
	types []types.Type
	// funcs holds the functions and closures stored as function values.
	funcs []*ssa.Function
	// untraced holds the types of the function values stored that the
	// audit does not trace (os.Getenv, which another tool left in a
	// variable): any function of such a type whose value the program
	// takes may be stored.
	untraced []*types.Signature
	// reflected holds g.reflected, the interfaces whose variables
	// reflection reaches.
	reflected typeutil.Map
}

// reflectFlows returns what the reflective stores of the program's code
// (reflectStores) store, made once.
func (g *graph) reflectFlows() *reflectFlow {
	if g.flows != nil {
		return g.flows
	}
	f := &reflectFlow{}
	g.flows = f
	for _, it := range g.reflected {
		f.reflected.Set(it, true)
	}
	for fn := range g.callSites().all {
		if g.isStd(fnPkgPath(fn)) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if callee := call.Common().StaticCallee(); callee != nil && reflectStore(callee) {
						g.addFlow(f, call.Common())
					}
				}
			}
		}
	}
	return f
}

// addFlow adds to f what the reflective store common stores, of the
// values the audit traces: the functions a function value is made of
// (madeValues), the types of others (valueTypes).
func (g *graph) addFlow(f *reflectFlow, common *ssa.CallCommon) {
	vals, _ := storedArgs(common)
	for _, v := range vals {
		if x, ok := valueOfArg(v); ok {
			if sig, isFunc := x.Type().Underlying().(*types.Signature); isFunc {
				made, ok := g.madeValues(x)
				if !ok {
					f.untraced = append(f.untraced, sig)
					continue
				}
				for _, m := range made {
					switch m := m.(type) {
					case *ssa.Function:
						f.funcs = append(f.funcs, m)
					case *ssa.MakeClosure:
						f.funcs = append(f.funcs, m.Fn.(*ssa.Function))
					}
				}
				continue
			}
		}
		ts, _ := g.valueTypes(v, map[ssa.Value]bool{})
		f.types = append(f.types, ts...)
	}
}

// valueOfArg returns x of reflect.ValueOf(x), the conversion to an
// interface undone.
func valueOfArg(v ssa.Value) (ssa.Value, bool) {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return nil, false
	}
	fn := call.Call.StaticCallee()
	if fn == nil {
		return nil, false
	}
	if f, ok := fn.Object().(*types.Func); !ok || f.FullName() != "reflect.ValueOf" {
		return nil, false
	}
	mi, ok := call.Call.Args[0].(*ssa.MakeInterface)
	if !ok {
		return nil, false
	}
	return mi.X, true
}

// reflectFlowEdges adds to n, which makes the dynamic call common at pos
// that VTA resolves, the edges of what a reflective store may have put
// where the call finds it (reflectFlows): for a method of an interface
// whose variables reflection reaches, that method of each stored type
// that implements the interface; for a function value, each stored
// function of its signature.
func (g *graph) reflectFlowEdges(n *node, common *ssa.CallCommon, pos token.Pos) {
	f := g.reflectFlows()
	if !common.IsInvoke() {
		sig := common.Signature()
		for _, fn := range f.funcs {
			if types.Identical(fn.Signature, sig) {
				g.calledEdge(n, fn, pos)
			}
		}
		if slices.ContainsFunc(f.untraced, func(u *types.Signature) bool { return types.Identical(u, sig) }) {
			g.takenEdges(n, sig, pos)
		}
		return
	}
	it, ok := common.Value.Type().Underlying().(*types.Interface)
	if !ok || f.reflected.At(it) == nil {
		return // reflection reaches no variable of this interface
	}
	m := common.Method
	for _, t := range f.types {
		for _, mt := range []types.Type{t, types.NewPointer(t)} {
			if _, isPtr := t.Underlying().(*types.Pointer); isPtr && mt != t {
				continue
			}
			if !types.Implements(mt, it) {
				continue
			}
			if sel := g.prog.MethodSets.MethodSet(mt).Lookup(m.Pkg(), m.Name()); sel != nil {
				if fn := g.prog.MethodValue(sel); fn != nil {
					g.calledEdge(n, fn, pos)
				}
			}
		}
	}
}

// targetPath returns the methods of reflect.Type that lead from the type
// of the receiver of the reflective store common to the type of the
// variable its i-th stored value (storedArgs) goes into: none for Set,
// Elem for what Send and TrySend send and for a map's element, Key for a
// map's key; false for Convert.
func targetPath(common *ssa.CallCommon, i int) ([]string, bool) {
	switch reflectName(common) {
	case "(reflect.Value).Set":
		return nil, true
	case "(reflect.Value).Send", "(reflect.Value).TrySend":
		return []string{"Elem"}, true
	case "(reflect.Value).SetMapIndex":
		return [][]string{{"Key"}, {"Elem"}}[i], i < 2
	}
	return nil, false
}

// freshOf reports whether v, a reflect.Value stored into a variable whose
// type is recv.Type() followed by path (targetPath), is a value
// reflection made of that very type, or of a pointer to it (New, Zero,
// MakeSlice, MakeMap, MakeMapWithSize, MakeChan, New's Elem), or recv
// sliced: decoders fill what they are given so (toml's v.Set(reflect.New(
// v.Type().Elem()))). Such a value holds nothing the program made, and
// its type is the variable's (or the store panics): it adds no type to an
// interface.
func freshOf(v, recv ssa.Value, path []string, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !freshOf(e, recv, path, seen) {
				return false
			}
		}
		return true
	case *ssa.Call:
		args := v.Call.Args
		switch reflectName(&v.Call) {
		case "reflect.Zero", "reflect.MakeSlice", "reflect.MakeMap", "reflect.MakeMapWithSize", "reflect.MakeChan":
			return len(args) > 0 && typeOf(args[0], recv, path, map[ssa.Value]bool{})
		case "reflect.New":
			// A pointer to the variable's element: of the variable's
			// type when that is a pointer; Elem panics on an
			// interface, and Set on any other type.
			return len(args) == 1 && typeOf(args[0], recv, append(slices.Clip(path), "Elem"), map[ssa.Value]bool{})
		case "(reflect.Value).Elem":
			if len(args) != 1 {
				return false
			}
			n, ok := args[0].(*ssa.Call)
			return ok && reflectName(&n.Call) == "reflect.New" && len(n.Call.Args) == 1 &&
				typeOf(n.Call.Args[0], recv, path, map[ssa.Value]bool{})
		case "(reflect.Value).Slice", "(reflect.Value).Slice3":
			return len(path) == 0 && len(args) > 0 && args[0] == recv
		}
	}
	return false
}

// typeOf reports whether the reflect.Type t is recv.Type() followed by
// the methods path (Elem, Key) of reflect.Type.
func typeOf(t, recv ssa.Value, path []string, seen map[ssa.Value]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t := t.(type) {
	case *ssa.Phi:
		for _, e := range t.Edges {
			if !typeOf(e, recv, path, seen) {
				return false
			}
		}
		return true
	case *ssa.Call:
		if t.Call.IsInvoke() {
			m := t.Call.Method
			return len(path) > 0 && len(t.Call.Args) == 0 && m.Name() == path[len(path)-1] &&
				types.TypeString(t.Call.Value.Type(), nil) == "reflect.Type" &&
				typeOf(t.Call.Value, recv, path[:len(path)-1], seen)
		}
		return len(path) == 0 && reflectName(&t.Call) == "(reflect.Value).Type" &&
			len(t.Call.Args) == 1 && t.Call.Args[0] == recv
	}
	return false
}

// reflectName returns the full name of the function of package reflect
// common calls statically, or "".
func reflectName(common *ssa.CallCommon) string {
	fn := common.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "reflect" {
		return ""
	}
	f, ok := fn.Object().(*types.Func)
	if !ok || fn.Signature.Recv() == nil && f.Signature().Recv() != nil {
		return "" // a $thunk, whose receiver is its first argument
	}
	return f.FullName()
}

// calledEdge adds to n the edge of a call of fn at pos, with what the
// standard library's function reads.
func (g *graph) calledEdge(n *node, fn *ssa.Function, pos token.Pos) {
	n.out = append(n.out, edge{g.nodeOf(fn), pos})
	if g.isStd(fnPkgPath(fn)) {
		g.stdReads(n, fn, pos)
	}
}

// takenEdges adds to n, which calls a function value of type sig at pos
// that may be any, the edges to every function of that type whose value
// the program takes.
func (g *graph) takenEdges(n *node, sig *types.Signature, pos token.Pos) {
	for _, fn := range g.callSites().takenByName {
		if types.Identical(fn.Signature, sig) {
			g.calledEdge(n, fn, pos)
		}
	}
}
