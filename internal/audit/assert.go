package audit

import (
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/ssa"
)

// dynTraceLimit bounds the values dynTypes follows for one assertion;
// past it, the types are unknown (fail closed).
const dynTraceLimit = 4096

// dynTypes returns the dynamic types the interface value v of
// non-standard code can hold, and whether the audit knows them all. It
// follows v back through SSA values only: conversions (MakeInterface,
// whose operand's type is the dynamic type), conversions between
// interfaces and type assertions to an interface (which keep it),
// φ-nodes, nil, the results of static calls of functions with a body
// outside the standard library (their returns), the parameters of
// functions that are called and never taken as values and of methods
// whose calls are all static (the arguments of every call in the
// program: callSites, methodArguments), a variable a closure captures,
// in a closure that runs only in the chain of calls that made it, and
// the fields, elements and package variables the cases below trace.
// Anything else may hold a value the audit cannot trace, and makes the
// answer unknown: any other load from memory (a variable, a field, an
// element, a map, a channel, a named result a deferred function may
// set), a parameter of a method an interface, the registry or
// reflection may call, or of a function whose value is taken (the
// standard library may call it: sort, iterators, sync.OnceValue), a call
// of the standard library, of a function without a body or of a function
// value or an interface, recover, and the code of a generic function's
// body before instantiation.
func (g *graph) dynTypes(v ssa.Value) ([]types.Type, bool) {
	ts, _, ok := g.dynConversions(v)
	return ts, ok
}

// dynConversions is dynTypes with the conversions the types come from.
func (g *graph) dynConversions(v ssa.Value) ([]types.Type, []*ssa.MakeInterface, bool) {
	var out []types.Type
	var convs []*ssa.MakeInterface
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{v}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		if len(seen) > dynTraceLimit {
			return nil, nil, false
		}
		if c, ok := v.(*ssa.Const); ok {
			if !c.IsNil() {
				return nil, nil, false // not an interface's constant
			}
			continue // nil: no dynamic type
		}
		fn := v.Parent()
		if fn == nil || len(fn.Blocks) == 0 || g.isStd(fnPkgPath(fn)) || genericBody(fn) {
			return nil, nil, false
		}
		switch v := v.(type) {
		case *ssa.MakeInterface:
			t := v.X.Type()
			if hasTypeParam(t, map[types.Type]bool{}) {
				return nil, nil, false
			}
			if !containsType(out, t) {
				out = append(out, t)
			}
			convs = append(convs, v)
		case *ssa.ChangeInterface:
			work = append(work, v.X)
		case *ssa.ChangeType:
			if !types.IsInterface(v.X.Type()) {
				return nil, nil, false
			}
			work = append(work, v.X)
		case *ssa.TypeAssert:
			// Without comma-ok (comma-ok makes a tuple, through
			// Extract below): to an interface, the dynamic type is
			// the operand's.
			if v.CommaOk || !types.IsInterface(v.AssertedType) {
				return nil, nil, false
			}
			work = append(work, v.X)
		case *ssa.Extract:
			switch t := v.Tuple.(type) {
			case *ssa.TypeAssert:
				if v.Index != 0 || !types.IsInterface(t.AssertedType) {
					return nil, nil, false
				}
				work = append(work, t.X)
			case *ssa.Call:
				rs, ok := g.returned(t, v.Index)
				if !ok {
					return nil, nil, false
				}
				work = append(work, rs...)
			case *ssa.Lookup:
				vals, ok := g.mapLookupValues(t)
				if !ok || v.Index != 0 || !onlyIfaces(vals) {
					return nil, nil, false
				}
				work = append(work, vals...)
			default:
				return nil, nil, false
			}
		case *ssa.Call:
			if vals, ok := g.contextValues(&v.Call); ok {
				// ctx.Value(key{}): what the program stores under
				// a key of that type.
				work = append(work, vals...)
				continue
			}
			rs, ok := g.returned(v, 0)
			if !ok {
				return nil, nil, false
			}
			work = append(work, rs...)
		case *ssa.Phi:
			work = append(work, v.Edges...)
		case *ssa.Parameter:
			args, ok := g.arguments(v)
			if !ok {
				// A method's, whose calls are all static.
				args, ok = g.methodArguments(v)
			}
			if !ok {
				return nil, nil, false
			}
			work = append(work, args...)
		case *ssa.Lookup:
			// An interface from a map package variable (var
			// handlers = map[string]handler{…}; handlers[k].Handle(x)).
			vals, ok := g.mapLookupValues(v)
			if !ok || !onlyIfaces(vals) {
				return nil, nil, false
			}
			work = append(work, vals...)
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return nil, nil, false
			}
			if ia, ok := v.X.(*ssa.IndexAddr); ok {
				// An element of a slice field that is only read
				// (for _, st := range p.steps { st.Apply(s) }), or
				// of a slice parameter every call makes for it
				// (runAll(ctx, tasks) over append(tasks, hashTask{s})).
				vals, ok := g.fieldElems(ia)
				if !ok {
					vals, ok = g.sliceArguments(ia)
				}
				if !ok {
					return nil, nil, false
				}
				work = append(work, vals...)
				continue
			}
			if fa, ok := v.X.(*ssa.FieldAddr); ok {
				// An interface field of a local struct, a value
				// receiver's among them (type trimmed struct{ inner
				// lookuper }; t.inner.Lookup(s)), or of a struct
				// package variable.
				vals, ok := g.fieldAddrValues(fa)
				if !ok {
					return nil, nil, false
				}
				work = append(work, vals...)
				continue
			}
			if _, free := v.X.(*ssa.FreeVar); free {
				// A variable of the function that made the closure,
				// which lives in a cell (func WithRunner(r runner)
				// Option { return func(s *service) { s.r = r } }):
				// what is stored there, when the closure runs only in
				// the chain of calls that made it (as madeValues).
				if g.escapes(fn) && !g.returnedClosure(fn) {
					return nil, nil, false
				}
				vals, ok := cellValues(v.X)
				if !ok {
					return nil, nil, false
				}
				work = append(work, vals...)
				continue
			}
			// A package variable whose every value is an interface
			// made and kept only in package variables (storedValues).
			gv, ok := v.X.(*ssa.Global)
			if !ok {
				return nil, nil, false
			}
			vals, ok := g.storedValues(gv)
			if !ok {
				return nil, nil, false
			}
			for _, s := range vals {
				switch s.(type) {
				case *ssa.MakeInterface, *ssa.Const:
				default:
					return nil, nil, false
				}
			}
			work = append(work, vals...)
		case *ssa.Field:
			// An interface field of a struct its code made, or of a
			// value receiver every call passes one (type trimmed
			// struct{ inner lookuper }; t.inner.Lookup(s)).
			vals, ok := g.structFieldValues(v.X, v.Field)
			if !ok {
				return nil, nil, false
			}
			work = append(work, vals...)
		default:
			return nil, nil, false
		}
	}
	return out, convs, true
}

// onlyIfaces reports whether vals are all interfaces made of a value
// (whose type dynTypes takes) or nil.
func onlyIfaces(vals []ssa.Value) bool {
	for _, v := range vals {
		switch v.(type) {
		case *ssa.MakeInterface, *ssa.Const:
		default:
			return false
		}
	}
	return true
}

// returned returns the values that the static callee of call returns
// as its result i, if the callee is a function of the program with a
// body outside the standard library.
func (g *graph) returned(call *ssa.Call, i int) ([]ssa.Value, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 || g.isStd(fnPkgPath(callee)) || genericBody(callee) {
		return nil, false
	}
	if i >= callee.Signature.Results().Len() {
		return nil, false
	}
	var out []ssa.Value
	for _, b := range callee.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if i >= len(ret.Results) {
				return nil, false
			}
			out = append(out, ret.Results[i])
		}
	}
	return out, true
}

// arguments returns the values every call of p's function passes as p,
// if those calls are all the program's: the function is not a method,
// its value is never taken, and it is called.
func (g *graph) arguments(p *ssa.Parameter) ([]ssa.Value, bool) {
	fn := p.Parent()
	if fn.Signature.Recv() != nil || g.funcs == nil {
		return nil, false
	}
	i := -1
	for j, q := range fn.Params {
		if q == p {
			i = j
		}
	}
	if i < 0 {
		return nil, false
	}
	cs := g.callSites()
	sites, taken := cs.sites[fn], cs.taken[fn]
	if o := fn.Origin(); o != nil {
		// An instance may be called from one the audit builds later (a
		// method of a generic type's instance that only reflection
		// makes), whose declared body calls another instance of the
		// same function: the calls of every instance and of the origin
		// count, those made in a generic body with values of type
		// parameters' types, which the trace does not follow.
		sites, taken = cs.byOrigin[o], cs.takenOrigin[o]
	}
	if g.neverCalled(fn, sites, taken) {
		return nil, true
	}
	return argsAt(sites, taken, i)
}

// neverCalled reports whether fn, whose calls are sites, is never
// called: no call of the program, its value never taken, no
// //go:linkname directive naming it, and outside the package of the
// tools, whose functions the registry and the programs that embed it may
// call (an unused method of a dependency, singleflight's DoChan, gives
// its parameters no value).
func (g *graph) neverCalled(fn *ssa.Function, sites []*ssa.CallCommon, taken bool) bool {
	if len(sites) > 0 || taken || g.rootPkg == nil || fn.Pkg == nil || fn.Pkg.Pkg == g.rootPkg || g.isStd(fnPkgPath(fn)) {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, ok := fn.Object().(*types.Func)
	return ok && !g.linknamedFuncs[obj]
}

// argsAt returns the i-th argument of each of the calls sites of a
// function, or false when its value is taken elsewhere (code the audit
// cannot see may call it), it has no call, or a call has no i-th
// argument.
func argsAt(sites []*ssa.CallCommon, taken bool, i int) ([]ssa.Value, bool) {
	if taken || len(sites) == 0 {
		return nil, false
	}
	var out []ssa.Value
	for _, c := range sites {
		if i >= len(c.Args) {
			return nil, false
		}
		out = append(out, c.Args[i])
	}
	return out, true
}

// callSites indexes the calls of the program's functions: for each
// function, the static calls of it (directly, or of a closure made of
// it), and whether its value is taken anywhere else (stored, passed,
// returned, converted, bound to a closure that is not only called), in
// which case code the audit cannot see (the standard library, reflection)
// may call it.
type callSites struct {
	// all are the functions indexed (indexedFuncs).
	all   map[*ssa.Function]bool
	sites map[*ssa.Function][]*ssa.CallCommon
	taken map[*ssa.Function]bool
	// takenByName is taken's functions in the order of byName.
	takenByName []*ssa.Function
	// results are the static calls of each function that have a
	// result: sites' *ssa.Call instructions.
	results map[*ssa.Function][]*ssa.Call
	// byOrigin and takenOrigin are the same for the instances of a
	// generic function and the function itself, by their origin.
	byOrigin    map[*ssa.Function][]*ssa.CallCommon
	takenOrigin map[*ssa.Function]bool
}

func (g *graph) callSites() *callSites {
	if g.calls != nil {
		return g.calls
	}
	cs := &callSites{all: g.indexedFuncs(), sites: map[*ssa.Function][]*ssa.CallCommon{}, taken: map[*ssa.Function]bool{}, results: map[*ssa.Function][]*ssa.Call{}}
	var ops []*ssa.Value
	for fn := range cs.all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var common *ssa.CallCommon
				if call, ok := instr.(ssa.CallInstruction); ok {
					common = call.Common()
					switch callee := common.Value.(type) {
					case *ssa.Function:
						if !common.IsInvoke() {
							cs.sites[callee] = append(cs.sites[callee], common)
							if c, ok := call.(*ssa.Call); ok {
								cs.results[callee] = append(cs.results[callee], c)
							}
						}
					case *ssa.MakeClosure:
						if f, ok := callee.Fn.(*ssa.Function); ok && !common.IsInvoke() {
							cs.sites[f] = append(cs.sites[f], common)
						}
					}
				}
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					// A closure only called where it is made is
					// called there; any other use takes its value.
					if f, ok := mc.Fn.(*ssa.Function); ok && !onlyCalled(mc) {
						cs.taken[f] = true
					}
					for _, v := range mc.Bindings {
						if f, ok := v.(*ssa.Function); ok {
							cs.taken[f] = true
						}
					}
					continue
				}
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == nil {
						continue
					}
					f, ok := (*op).(*ssa.Function)
					if !ok {
						continue
					}
					if common != nil && op == &common.Value && !common.IsInvoke() {
						continue // the callee of a static call
					}
					cs.taken[f] = true
				}
			}
		}
	}
	cs.byOrigin, cs.takenOrigin = map[*ssa.Function][]*ssa.CallCommon{}, map[*ssa.Function]bool{}
	// In a fixed order, so that the audit is the same every run.
	fns := byName(maps.Keys(cs.sites))
	for _, f := range fns {
		o := f.Origin()
		if o == nil {
			o = f
		}
		cs.byOrigin[o] = append(cs.byOrigin[o], cs.sites[f]...)
	}
	cs.takenByName = byName(maps.Keys(cs.taken))
	for f := range cs.taken {
		o := f.Origin()
		if o == nil {
			o = f
		}
		cs.takenOrigin[o] = true
	}
	g.calls = cs
	return cs
}

// indexedFuncs returns the functions whose calls callSites indexes:
// those of the program (VTA's), and every function and method declared
// at the top of a non-standard package, with the functions nested in
// them. A method the audit builds only later (one of a generic type's
// instance that reflection makes, or of a type no interface holds) calls
// as its declared body does; the body of a generic one has values of
// type parameters' types, which the trace does not follow.
func (g *graph) indexedFuncs() map[*ssa.Function]bool {
	all := maps.Clone(g.funcs)
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || all[fn] {
			return
		}
		all[fn] = true
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, pkg := range g.prog.AllPackages() {
		if g.isStd(pkg.Pkg.Path()) {
			continue
		}
		scope := pkg.Pkg.Scope()
		for _, name := range scope.Names() {
			switch obj := scope.Lookup(name).(type) {
			case *types.Func:
				add(g.prog.FuncValue(obj))
			case *types.TypeName:
				named, ok := types.Unalias(obj.Type()).(*types.Named)
				if !ok || obj.IsAlias() {
					continue
				}
				for m := range named.Methods() {
					add(g.prog.FuncValue(m))
				}
			}
		}
	}
	return all
}

// onlyCalled reports whether every use of the closure mc is as the
// function a call calls, never as an argument.
func onlyCalled(mc *ssa.MakeClosure) bool {
	refs := mc.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		call, ok := r.(ssa.CallInstruction)
		if !ok || call.Common().Value != ssa.Value(mc) || call.Common().IsInvoke() {
			return false
		}
		for _, a := range call.Common().Args {
			if a == ssa.Value(mc) {
				return false
			}
		}
	}
	return true
}

// genericBody reports whether fn is, or is nested in, a generic function
// that is not an instance: its values have type parameters' types.
func genericBody(fn *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		if fn.TypeParams().Len() > 0 && len(fn.TypeArgs()) == 0 {
			return true
		}
	}
	return false
}

// hasTypeParam reports whether t mentions a type parameter.
func hasTypeParam(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		for a := range t.TypeArgs().Types() {
			if hasTypeParam(a, seen) {
				return true
			}
		}
		return false
	case *types.Alias:
		return hasTypeParam(types.Unalias(t), seen)
	case *types.Pointer:
		return hasTypeParam(t.Elem(), seen)
	case *types.Slice:
		return hasTypeParam(t.Elem(), seen)
	case *types.Array:
		return hasTypeParam(t.Elem(), seen)
	case *types.Chan:
		return hasTypeParam(t.Elem(), seen)
	case *types.Map:
		return hasTypeParam(t.Key(), seen) || hasTypeParam(t.Elem(), seen)
	case *types.Struct:
		for f := range t.Fields() {
			if hasTypeParam(f.Type(), seen) {
				return true
			}
		}
		return false
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for v := range tup.Variables() {
				if hasTypeParam(v.Type(), seen) {
					return true
				}
			}
		}
		return false
	case *types.Basic:
		return false
	default:
		return true // an interface cannot be a dynamic type; anything else: unknown
	}
}

// containsType reports whether ts holds a type identical to t.
func containsType(ts []types.Type, t types.Type) bool {
	for _, u := range ts {
		if types.Identical(u, t) {
			return true
		}
	}
	return false
}
