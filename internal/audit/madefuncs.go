package audit

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// madeHere reports whether every function value the callee v of a
// dynamic call in non-standard code can hold is made by code that has an
// edge to it, in the same chain of calls: a function (a constant of the
// code that names it), a closure (made by MakeClosure), or nil, reached
// through SSA values only (φ-nodes, conversions between func types, the
// returns of static calls, the free variables a closure was made with
// when it is only called where it is made, and the parameters of
// functions whose calls are all the program's: arguments,
// methodArguments). Then the call needs no edges of its own:
// the maker of each value, which ran before it in the same execution,
// has the edge. VTA, which does not tell callers apart, gave a helper
// that calls a func parameter (retry(ctx, f), an errgroup's Go) every
// function any tool passed it, and so every tool that calls the helper
// what every other tool's function does (honest sharedhelper). Anything
// else (a load from memory, a call of the standard library, a function
// value or an interface) keeps VTA's edges, and so does a free variable
// of a closure whose value is taken (stored, passed, returned): the
// closure may run in code that never ran its maker, another tool's that
// loads it from a variable (probe closureescape).
func (g *graph) madeHere(v ssa.Value) bool {
	_, ok := g.madeValues(v)
	return ok
}

// madeValues returns the functions and closures (*ssa.Function,
// *ssa.MakeClosure) the function value v may hold, when madeHere traces
// it.
func (g *graph) madeValues(v ssa.Value) (made []ssa.Value, ok bool) {
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
			return nil, false
		}
		switch v := v.(type) {
		case *ssa.Function, *ssa.MakeClosure:
			made = append(made, v)
			continue
		case *ssa.Const:
			if !v.IsNil() {
				return nil, false
			}
			continue
		}
		fn := v.Parent()
		if fn == nil || len(fn.Blocks) == 0 || g.isStd(fnPkgPath(fn)) || genericBody(fn) {
			return nil, false
		}
		switch v := v.(type) {
		case *ssa.Phi:
			work = append(work, v.Edges...)
		case *ssa.ChangeType:
			work = append(work, v.X)
		case *ssa.Call:
			rs, ok := g.returned(v, 0)
			if !ok {
				return nil, false
			}
			work = append(work, rs...)
		case *ssa.Extract:
			if l, ok := v.Tuple.(*ssa.Lookup); ok && v.Index == 0 {
				vals, ok := g.mapLookupValues(l)
				if !ok {
					return nil, false
				}
				work = append(work, vals...)
				continue
			}
			call, ok := v.Tuple.(*ssa.Call)
			if !ok {
				return nil, false
			}
			rs, ok := g.returned(call, v.Index)
			if !ok {
				return nil, false
			}
			work = append(work, rs...)
		case *ssa.Lookup:
			// A function from a map package variable (var ops =
			// map[string]func(…){…}; ops[name](x)).
			vals, ok := g.mapLookupValues(v)
			if !ok {
				return nil, false
			}
			work = append(work, vals...)
		case *ssa.Field:
			// A field of a copy of struct package variables (f :=
			// upper; f.render(s)).
			vals, ok := g.copiedFieldValues(v)
			if !ok {
				return nil, false
			}
			work = append(work, vals...)
		case *ssa.FreeVar:
			if g.escapes(fn) {
				return nil, false
			}
			bs, ok := bindings(v)
			if !ok {
				return nil, false
			}
			work = append(work, bs...)
		case *ssa.Parameter:
			args, ok := g.arguments(v)
			if !ok {
				args, ok = g.methodArguments(v)
			}
			if !ok {
				return nil, false
			}
			work = append(work, args...)
		case *ssa.UnOp:
			if gv, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
				// A package variable whose every value is a function
				// or a closure kept only in package variables: the
				// code that loads it has the edges (progVar).
				vals, ok := g.storedValues(gv)
				if !ok {
					return nil, false
				}
				for _, s := range vals {
					switch s.(type) {
					case *ssa.Function, *ssa.MakeClosure, *ssa.Const:
					default:
						return nil, false
					}
				}
				work = append(work, vals...)
				continue
			}
			if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
				vals, ok := g.fieldAddrValues(fa)
				if !ok {
					return nil, false
				}
				work = append(work, vals...)
				continue
			}
			if ia, ok := v.X.(*ssa.IndexAddr); ok && v.Op == token.MUL {
				if u, ok := ia.X.(*ssa.UnOp); ok && u.Op == token.MUL {
					// An element of a slice package variable that
					// start-up code sets to a literal, whose elements
					// no one writes (var order = []func(string)
					// string{strings.TrimSpace, strings.ToLower}).
					if gv, ok := u.X.(*ssa.Global); ok {
						vals, ok := g.elemValues(gv)
						if !ok {
							return nil, false
						}
						work = append(work, vals...)
						continue
					}
					// An element of a slice field that is only read
					// and appended to (for _, h := range b.hooks).
					if _, ok := u.X.(*ssa.FieldAddr); ok {
						vals, ok := g.fieldElems(ia)
						if !ok {
							return nil, false
						}
						work = append(work, vals...)
						continue
					}
				}
				// An element of a slice parameter the function only
				// reads (functional options: for _, o := range opts
				// { o(&c) }), itself or captured: what each call's
				// new slice holds.
				vals, ok := g.sliceArguments(ia)
				if !ok {
					return nil, false
				}
				work = append(work, vals...)
				continue
			}
			// A variable a closure captures, which lives in a cell:
			// what is stored there.
			if v.Op != token.MUL {
				return nil, false
			}
			if _, free := v.X.(*ssa.FreeVar); free && g.escapes(fn) && !g.returnedClosure(fn) {
				return nil, false
			}
			vals, ok := cellValues(v.X)
			if !ok {
				return nil, false
			}
			work = append(work, vals...)
		default:
			return nil, false
		}
	}
	return made, true
}

// fieldElems returns the elements a load through ia may give, when ia
// indexes a slice loaded from a field of a struct type of the program
// (p.steps[i]) that is only read anywhere (sliceFieldReadOnly), and
// every value stored into the field (fieldAddrValues) is a slice literal
// or the slice parameter of a function that only stores it there, every
// call of which passes a slice literal made for it (a variadic call's):
// newPipeline(trim{}, upper{}) with func newPipeline(steps ...step)
// *pipeline { return &pipeline{steps: steps} }.
func (g *graph) fieldElems(ia *ssa.IndexAddr) ([]ssa.Value, bool) {
	u, ok := ia.X.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil, false
	}
	fa, ok := u.X.(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok || !g.sliceFieldReadOnly(ptr.Elem(), fa.Field) {
		return nil, false
	}
	stored, ok := g.fieldAddrValues(fa)
	if !ok {
		return nil, false
	}

	var out []ssa.Value
	for _, v := range stored {
		if p, ok := v.(*ssa.Parameter); ok {
			// Only stored, into the field.
			for _, r := range *p.Referrers() {
				switch r := r.(type) {
				case *ssa.DebugRef:
				case *ssa.Store:
					if r.Val != p {
						return nil, false
					}
					if f, ok := r.Addr.(*ssa.FieldAddr); !ok || f.Field != fa.Field || !types.Identical(f.X.Type(), fa.X.Type()) {
						return nil, false
					}
				default:
					return nil, false
				}
			}
			args, ok := g.arguments(p)
			if !ok {
				return nil, false
			}
			for _, a := range args {
				if c, ok := a.(*ssa.Const); ok && c.IsNil() {
					continue // no elements
				}
				elems, ok := sliceLiteral(a)
				if !ok {
					return nil, false
				}
				out = append(out, elems...)
			}
			continue
		}
		if c, ok := v.(*ssa.Call); ok {
			// Appended to the field's own elements (b.hooks =
			// append(b.hooks, h)): the elements appended, every store
			// into the field being among these.
			if u, ok := c.Call.Args[0].(*ssa.UnOp); ok && selfAppend(u) == c {
				v = c.Call.Args[1]
			}
		}
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			continue // no elements
		}
		elems, ok := sliceLiteral(v)
		if !ok {
			return nil, false
		}
		out = append(out, elems...)
	}
	return out, true
}

// sliceFieldReadOnly reports whether the slice field i of the struct
// type t is only read anywhere in the program: every load of it, through
// a pointer, is only indexed to load an element or measured.
func (g *graph) sliceFieldReadOnly(t types.Type, i int) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() || st.Field(i).Exported() || g.converted(t) {
		return false // a converted one's field may be written as the other's (probe convsteps)
	}
	if _, ok := st.Field(i).Type().Underlying().(*types.Slice); !ok {
		return false
	}
	for fn := range g.callSites().all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Field:
					if x.Field == i && types.Identical(x.X.Type(), t) {
						return false // a copy of the struct's slice
					}
				case *ssa.FieldAddr:
					if x.Field != i || !types.Identical(x.X.Type().Underlying().(*types.Pointer).Elem(), t) {
						continue
					}
					for _, r := range *x.Referrers() {
						switch r := r.(type) {
						case *ssa.DebugRef:
						case *ssa.Store:
							if r.Addr != x || r.Val == x {
								return false
							}
						case *ssa.UnOp:
							if r.Op != token.MUL || !readOnlyElems(r) && selfAppend(r) == nil {
								return false
							}
						default:
							return false
						}
					}
				}
			}
		}
	}
	return true
}

// sameField reports whether the addresses a and b are of the same field of
// the same struct (one FieldAddr, or two of the same pointer).
func sameField(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	fa, ok := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	return ok && ok2 && fa.X == fb.X && fa.Field == fb.Field
}

// selfAppend returns the append call when the load of a slice field is
// only appended to and the result stored back into the same field
// through the same address (b.hooks = append(b.hooks, h)), which adds
// the appended elements and writes none of those already there.
func selfAppend(load *ssa.UnOp) *ssa.Call {
	refs := *load.Referrers()
	if len(refs) != 1 {
		return nil
	}
	call, ok := refs[0].(*ssa.Call)
	if !ok {
		return nil
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" || len(call.Call.Args) != 2 || call.Call.Args[0] != load {
		return nil
	}
	for _, r := range *call.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Val != call || !sameField(r.Addr, load.X) {
				return nil
			}
		default:
			return nil
		}
	}
	return call
}

// readOnlyElems reports whether the slice s is only indexed to load an
// element, and measured.
func readOnlyElems(s ssa.Value) bool {
	for _, r := range *s.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.IndexAddr:
			for _, rr := range *r.Referrers() {
				if u, ok := rr.(*ssa.UnOp); !ok || u.Op != token.MUL {
					return false
				}
			}
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fieldAddrValues returns the values a load through fa may give: a
// field of a struct package variable (upper.render), of a local struct
// (f := upper; f.render(s)), a value receiver's copy among them, or of a
// pointer receiver (func (c *Cache) Get(k string) string { return
// c.load(k) }).
func (g *graph) fieldAddrValues(fa *ssa.FieldAddr) ([]ssa.Value, bool) {
	switch x := fa.X.(type) {
	case *ssa.Global:
		return g.fieldValues(x, fa.Field)
	case *ssa.Alloc:
		return g.localFieldValues(x, fa.Field)
	case *ssa.Parameter:
		return g.receiverFieldValues(x, fa.Field, -1)
	case *ssa.FieldAddr:
		// A field of a struct field of a pointer receiver
		// (c.cfg.Runner).
		if p, ok := x.X.(*ssa.Parameter); ok {
			return g.receiverFieldValues(p, x.Field, fa.Field)
		}
	}
	return nil, false
}

// localFieldValues returns the values the field i of the local struct
// variable a may hold, when a's address is only loaded and stored
// through, its fields' too: what is stored into the field, and the
// field of each struct package variable (fieldValues) or local struct
// copied whole into a.
func (g *graph) localFieldValues(a *ssa.Alloc, i int) ([]ssa.Value, bool) {
	return g.localFields(a, i, map[*ssa.Alloc]bool{})
}

// localFields is localFieldValues, with the locals seen on the way (a
// copy of one already seen adds nothing).
func (g *graph) localFields(a *ssa.Alloc, i int, seen map[*ssa.Alloc]bool) ([]ssa.Value, bool) {
	if seen[a] {
		return nil, true
	}
	seen[a] = true
	var out []ssa.Value
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil, false
			}
		case *ssa.Store:
			if r.Addr != a || r.Val == a {
				return nil, false
			}
			u, ok := r.Val.(*ssa.UnOp)
			if !ok || u.Op != token.MUL {
				// A parameter spilled into its variable (a value
				// receiver whose field is addressed).
				p, ok := r.Val.(*ssa.Parameter)
				if !ok {
					return nil, false
				}
				vals, ok := g.structFieldValues(p, i)
				if !ok {
					return nil, false
				}
				out = append(out, vals...)
				continue
			}
			var vals []ssa.Value
			switch x := u.X.(type) {
			case *ssa.Global:
				vals, ok = g.fieldValues(x, i)
			case *ssa.Alloc:
				// A copy of another local, a literal's.
				if x.Parent() != a.Parent() {
					return nil, false
				}
				vals, ok = g.localFields(x, i, seen)
			default:
				ok = false
			}
			if !ok {
				return nil, false
			}
			out = append(out, vals...)
		case *ssa.FieldAddr:
			stored, ok := fieldStored(r)
			if !ok {
				return nil, false
			}
			if r.Field == i {
				out = append(out, stored...)
			}
		case *ssa.Call:
			// Its address passed to a function of the program that
			// sets its fields (a functional option: for _, o := range
			// opts { o(&c) }).
			vals, ok := g.paramFieldStores(r, a, i)
			if !ok {
				return nil, false
			}
			out = append(out, vals...)
		default:
			return nil, false
		}
	}
	return out, true
}

// paramFieldStores returns the values the functions call may call store
// into the field i of the struct x points to, an argument of the call:
// each callee a function of the program (a static callee, or each
// function and closure madeValues traces the called value to) that only
// loads and stores the fields of the parameter it is given x in, so
// that nothing but those stores sets the field through it.
func (g *graph) paramFieldStores(call *ssa.Call, x ssa.Value, i int) ([]ssa.Value, bool) {
	common := &call.Call
	if common.Value == x {
		return nil, false
	}
	callees, ok := g.programCallees(common)
	if !ok {
		return nil, false
	}
	var out []ssa.Value
	for _, fn := range callees {
		for j, arg := range common.Args {
			if arg != x {
				continue
			}
			for _, r := range *fn.Params[j].Referrers() {
				switch r := r.(type) {
				case *ssa.DebugRef:
				case *ssa.FieldAddr:
					stored, ok := fieldStored(r)
					if !ok {
						return nil, false
					}
					if r.Field == i {
						out = append(out, stored...)
					}
				default:
					return nil, false
				}
			}
		}
	}
	return out, true
}

// programCallees returns the functions common may call, when each is a
// function of the program with a body and a parameter for each argument:
// its static callee, or each function and closure madeValues traces the
// called value to. An interface method's call has none.
func (g *graph) programCallees(common *ssa.CallCommon) ([]*ssa.Function, bool) {
	if common.IsInvoke() {
		return nil, false
	}
	var callees []*ssa.Function
	if fn := common.StaticCallee(); fn != nil {
		callees = append(callees, fn)
	} else {
		made, ok := g.madeValues(common.Value)
		if !ok {
			return nil, false
		}
		for _, m := range made {
			switch m := m.(type) {
			case *ssa.Function:
				callees = append(callees, m)
			case *ssa.MakeClosure:
				fn, ok := m.Fn.(*ssa.Function)
				if !ok {
					return nil, false
				}
				callees = append(callees, fn)
			}
		}
	}
	for _, fn := range callees {
		if len(fn.Blocks) == 0 || g.isStd(fnPkgPath(fn)) || genericBody(fn) || len(fn.Params) != len(common.Args) {
			return nil, false
		}
	}
	return callees, true
}

// copiedFieldValues returns the values of the field f reads from a copy
// of struct package variables or of local structs (through φ-nodes),
// each traced by fieldValues or localFieldValues.
func (g *graph) copiedFieldValues(f *ssa.Field) ([]ssa.Value, bool) {
	return g.structFieldValues(f.X, f.Field)
}

// structFieldValues returns the values the field i of the struct value x
// may hold (see copiedFieldValues).
func (g *graph) structFieldValues(x ssa.Value, i int) ([]ssa.Value, bool) {
	// Locals, parameters and receivers lead to each other (a method that
	// calls itself with its receiver): past a depth, unknown.
	if g.fieldDepth > 16 {
		return nil, false
	}
	g.fieldDepth++
	defer func() { g.fieldDepth-- }()
	var out []ssa.Value
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{x}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Const:
			// A struct's zero value (newClient(Config{})): its fields
			// hold nothing.
		case *ssa.Phi:
			work = append(work, v.Edges...)
		case *ssa.Parameter:
			// A struct parameter, or a method's value receiver
			// (func (c cache) get(k string) string { return
			// c.load(k) }): what each call passes.
			args, ok := g.arguments(v)
			if !ok {
				args, ok = g.receiverArguments(v)
			}
			if !ok {
				args, ok = g.ifaceReceivers(v)
			}
			if !ok {
				return nil, false
			}
			work = append(work, args...)
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return nil, false
			}
			var vals []ssa.Value
			var ok bool
			switch x := v.X.(type) {
			case *ssa.Global:
				vals, ok = g.fieldValues(x, i)
			case *ssa.Alloc:
				// A local struct, a literal's (v := visitor{visit:
				// c.add}; v.visit(n)).
				vals, ok = g.localFieldValues(x, i)
			}
			if !ok {
				return nil, false
			}
			out = append(out, vals...)
		default:
			return nil, false
		}
	}
	return out, true
}

// sliceArguments returns the elements of the slices every call passes as
// the slice parameter whose element ia addresses, when the function only
// reads the slice's elements and takes its length (it passes the slice
// nowhere, so nothing else writes them), itself or in a closure it makes
// that does the same and is kept nowhere (a worker goroutine's `go
// func() { … tasks[i].Do(ctx) … }()`), and each call passes a slice made
// for the call that is used for nothing else (appendedElems): a variadic
// call's, a slice literal's, or one a loop appends to.
func (g *graph) sliceArguments(ia *ssa.IndexAddr) ([]ssa.Value, bool) {
	p, ok := sliceParam(ia.X)
	if !ok || !g.readOnlySliceParam(p, p, p.Parent()) {
		return nil, false
	}
	args, ok := g.arguments(p)
	if !ok {
		args, ok = g.methodArguments(p)
	}
	if !ok {
		return nil, false
	}
	var out []ssa.Value
	for _, a := range args {
		elems, ok := appendedElems(a, p)
		if !ok {
			return nil, false
		}
		out = append(out, elems...)
	}
	return out, true
}

// sliceParam returns the parameter the slice x is: the parameter itself,
// a free variable a closure is given it by, or a load of the variable it
// is kept in when a closure captures it (of its cell, or of the free
// variable the closure holds the cell by).
func sliceParam(x ssa.Value) (*ssa.Parameter, bool) {
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		x = u.X
		if fv, ok := x.(*ssa.FreeVar); ok {
			bs, ok := bindings(fv)
			if !ok || len(bs) != 1 {
				return nil, false
			}
			x = bs[0]
		}
		cell, ok := x.(*ssa.Alloc)
		if !ok {
			return nil, false
		}
		for _, r := range *cell.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == cell {
				p, ok := st.Val.(*ssa.Parameter)
				return p, ok
			}
		}
		return nil, false
	}
	if fv, ok := x.(*ssa.FreeVar); ok {
		bs, ok := bindings(fv)
		if !ok || len(bs) != 1 {
			return nil, false
		}
		x = bs[0]
	}
	p, ok := x.(*ssa.Parameter)
	return p, ok
}

// readOnlySliceParam reports whether v, the slice parameter p of fn or a
// value it is copied to, is only indexed to load an element, measured,
// bound to closures of fn kept nowhere that do the same with it, or kept
// in a variable a closure captures (readOnlyCell).
func (g *graph) readOnlySliceParam(v ssa.Value, p *ssa.Parameter, fn *ssa.Function) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.IndexAddr:
			for _, rr := range *r.Referrers() {
				if u, ok := rr.(*ssa.UnOp); !ok || u.Op != token.MUL {
					return false
				}
			}
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
				return false
			}
		case *ssa.MakeClosure:
			if !g.boundOnly(r, v, fn, func(fv ssa.Value) bool { return g.readOnlySliceParam(fv, p, fn) }) {
				return false
			}
		case *ssa.Store:
			cell, ok := r.Addr.(*ssa.Alloc)
			if !ok || v != p || r.Val != p || cell.Parent() != fn || !g.readOnlyCell(cell, p, fn) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// readOnlyCell reports whether the variable cell (an Alloc of fn, or the
// free variable a closure of fn holds it by) is stored into only with p,
// in fn, and otherwise only loaded into values readOnlySliceParam
// accepts, by fn or by closures of fn kept nowhere.
func (g *graph) readOnlyCell(cell ssa.Value, p *ssa.Parameter, fn *ssa.Function) bool {
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != cell || r.Val != p || r.Parent() != fn {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || !g.readOnlySliceParam(r, p, fn) {
				return false
			}
		case *ssa.MakeClosure:
			if !g.boundOnly(r, cell, fn, func(fv ssa.Value) bool { return g.readOnlyCell(fv, p, fn) }) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// boundOnly reports whether mc makes a closure of fn that is kept nowhere
// and does with each free variable it binds v to what ok accepts.
func (g *graph) boundOnly(mc *ssa.MakeClosure, v ssa.Value, fn *ssa.Function, ok func(ssa.Value) bool) bool {
	c, isFn := mc.Fn.(*ssa.Function)
	if !isFn || c.Parent() != fn || g.escapes(c) {
		return false
	}
	for j, b := range mc.Bindings {
		if b == v && !ok(c.FreeVars[j]) {
			return false
		}
	}
	return true
}

// appendedElems returns the elements of the slice v a call passes as the
// parameter p, when it is made for the call and used for nothing else:
// nil, a slice literal (a variadic call's), or made empty (make([]T, 0,
// n)) and appended to with slice literals (append(tasks, hashTask{s})),
// through φ-nodes, each value on the way used only by the next, by len
// and as p by static calls of p's function.
func appendedElems(v ssa.Value, p *ssa.Parameter) ([]ssa.Value, bool) {
	fn := p.Parent()
	at := slices.Index(fn.Params, p)
	var out []ssa.Value
	chain := map[ssa.Value]bool{}
	work := []ssa.Value{v}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if chain[v] {
			continue
		}
		chain[v] = true
		if len(chain) > dynTraceLimit {
			return nil, false
		}
		switch v := v.(type) {
		case *ssa.Const:
			if !v.IsNil() {
				return nil, false
			}
			continue // no elements
		case *ssa.MakeSlice:
			// Made empty: its elements are zero, nil interfaces or
			// functions, until appended to.
		case *ssa.Phi:
			work = append(work, v.Edges...)
		case *ssa.Call:
			b, ok := v.Call.Value.(*ssa.Builtin)
			if !ok || b.Name() != "append" || len(v.Call.Args) != 2 {
				return nil, false
			}
			elems, ok := sliceLiteral(v.Call.Args[1])
			if !ok {
				return nil, false
			}
			out = append(out, elems...)
			work = append(work, v.Call.Args[0])
		default:
			elems, ok := sliceLiteral(v)
			if !ok {
				return nil, false
			}
			out = append(out, elems...)
			continue // used once, by the call
		}
	}
	for v := range chain {
		if _, ok := v.(*ssa.Const); ok {
			continue
		}
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.Phi:
				if !chain[r] {
					return nil, false
				}
			case *ssa.Call:
				if b, ok := r.Call.Value.(*ssa.Builtin); ok {
					if b.Name() == "len" || b.Name() == "append" && chain[r] && r.Call.Args[0] == v {
						continue
					}
					return nil, false
				}
				if r.Call.StaticCallee() != fn || r.Call.IsInvoke() {
					return nil, false
				}
				for j, a := range r.Call.Args {
					if a == v && j != at {
						return nil, false
					}
				}
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// returnedClosure reports whether the closure fn is made only to be
// returned by the function it is nested in, a function of the program
// whose value is never taken (`func trimmed(f func(string) string)
// func(string) string { return func(s string) string { return f(…) } }`),
// and each call of that function keeps the closure only in package
// variables, in start-up code (var shout = trimmed(strings.ToUpper)),
// or only calls it. Then what the closure captured from the function's
// parameters is made by each caller, and charged to whoever holds the
// result: the caller, or the variables' users (keptOnlyIn through
// onlyReturns). A closure kept anywhere else keeps VTA's edges.
func (g *graph) returnedClosure(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil || parent.Signature.Recv() != nil || parent.Origin() != nil || genericBody(parent) || g.funcs == nil {
		return false
	}
	made := false
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				made = true
				if !returnedOnly(mc, map[ssa.Value]bool{}) {
					return false
				}
			}
		}
	}
	cs := g.callSites()
	if !made || cs.taken[parent] || len(cs.sites[parent]) != len(cs.results[parent]) || len(cs.results[parent]) == 0 {
		return false
	}
	for _, call := range cs.results[parent] {
		vars := map[*ssa.Global]bool{}
		if g.flowsOnlyInto(call, vars, map[ssa.Value]bool{}) && len(vars) > 0 && startupCode(call.Parent()) {
			continue
		}
		if !g.notKept(call, map[ssa.Value]bool{}) {
			return false
		}
	}
	return true
}

// storedValues returns the values stored into the program's package
// variable v, when the code that loads v has the edges of each: v's
// address is only loaded and stored through, anywhere in the program,
// and only start-up code stores into it (which the audit always scans:
// a store in a function no tool reaches would leave v's node without the
// edge), each value a function, nil, or a closure or an interface made
// and kept only in package variables (see maker), whose edges are v's
// node's (progVar).
func (g *graph) storedValues(v *ssa.Global) ([]ssa.Value, bool) {
	if !g.traceable(v) {
		return nil, false
	}
	vals, ok := g.stored.whole[v]
	return vals, ok && g.keptValues(v, vals)
}

// fieldValues returns the values stored into the field i of the
// program's package variable v, a struct (var upper = formatter{"upper",
// strings.ToUpper}), as storedValues does for a whole variable: v's
// address is only loaded, and its fields' addresses only loaded and
// stored through, by start-up code alone.
func (g *graph) fieldValues(v *ssa.Global, i int) ([]ssa.Value, bool) {
	if !g.traceable(v) {
		return nil, false
	}
	fields, ok := g.stored.fields[v]
	return fields[i], ok && g.keptValues(v, fields[i])
}

// sliceLiteral returns the elements stored into the new array the slice
// v is made of, when v is such a slice used once (a slice literal's, a
// variadic call's), and the array is only stored into and sliced there.
func sliceLiteral(v ssa.Value) ([]ssa.Value, bool) {
	sl, ok := v.(*ssa.Slice)
	if !ok || len(*sl.Referrers()) != 1 {
		return nil, false
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []ssa.Value
	for _, r := range *arr.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Slice:
			if r != sl {
				return nil, false
			}
		case *ssa.IndexAddr:
			if !written(r) {
				return nil, false
			}
			for _, st := range *r.Referrers() {
				out = append(out, st.(*ssa.Store).Val)
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// elemValues returns the elements of the slice package variable v, when
// only start-up code sets it, each time to a slice literal (whose array
// is only stored into, and sliced once), and every load of it is only
// indexed to read an element or measured (g.stored.readOnly): its
// elements' edges are v's node's, as for storedValues.
func (g *graph) elemValues(v *ssa.Global) ([]ssa.Value, bool) {
	if !g.traceable(v) || !g.stored.readOnly[v] {
		return nil, false
	}
	whole, ok := g.stored.whole[v]
	if !ok {
		return nil, false
	}
	var out []ssa.Value
	for _, w := range whole {
		elems, ok := sliceLiteral(w)
		if !ok {
			return nil, false
		}
		out = append(out, elems...)
	}
	return out, g.keptValues(v, out)
}

// traceable reports whether the stores into the program's variable v can
// be indexed: not the standard library's, nor one a directive gives
// another name.
func (g *graph) traceable(v *ssa.Global) bool {
	obj, _ := v.Object().(*types.Var)
	if g.dyn == nil || v.Pkg == nil || g.isStd(v.Pkg.Pkg.Path()) || obj == nil || g.linknamed[obj] || g.asmSet[obj] != "" {
		return false
	}
	if g.stored == nil {
		g.stored = g.indexStores()
	}
	return true
}

// keptValues reports whether each of vals, stored into v, has its edges
// on v's node: a function, nil, or a closure or an interface kept only in
// package variables, v among them.
func (g *graph) keptValues(v *ssa.Global, vals []ssa.Value) bool {
	for _, val := range vals {
		switch val := val.(type) {
		case *ssa.Function:
		case *ssa.Const:
			if !val.IsNil() {
				return false
			}
		case *ssa.MakeClosure, *ssa.MakeInterface:
			vars := map[*ssa.Global]bool{}
			if !g.flowsOnlyInto(val, vars, map[ssa.Value]bool{}) || !vars[v] {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// varStores holds what start-up code stores into the program's package
// variables (indexStores).
type varStores struct {
	// whole holds, for each variable whose address is only loaded and
	// stored through, the values stored into it.
	whole map[*ssa.Global][]ssa.Value
	// readOnly holds the variables every load of which is only
	// indexed to read an element, or measured.
	readOnly map[*ssa.Global]bool
	// mapAdds holds, for each map variable every load of which is only
	// looked up, ranged over or measured, or updated by start-up code,
	// the values start-up code puts in it through a load.
	mapAdds map[*ssa.Global][]ssa.Value
	// fields holds, for each struct variable whose address is only
	// loaded, and whose fields' addresses are only loaded and stored
	// through, the values stored into each field.
	fields map[*ssa.Global]map[int][]ssa.Value
	// loads holds every load of each variable, in every function of
	// the program.
	loads map[*ssa.Global][]*ssa.UnOp
}

// indexStores indexes the stores into the program's package variables,
// by every function of the program; a store outside start-up code, or
// any other use of an address, leaves the variable out.
func (g *graph) indexStores() *varStores {
	whole := map[*ssa.Global][]ssa.Value{}
	fields := map[*ssa.Global]map[int][]ssa.Value{}
	other, otherFields, written := map[*ssa.Global]bool{}, map[*ssa.Global]bool{}, map[*ssa.Global]bool{}
	mapWritten, mapAdds := map[*ssa.Global]bool{}, map[*ssa.Global][]ssa.Value{}
	loads := map[*ssa.Global][]*ssa.UnOp{}
	var ops []*ssa.Value
	for fn := range g.callSites().all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					gv, ok := (*op).(*ssa.Global)
					if !ok {
						continue
					}
					switch instr := instr.(type) {
					case *ssa.UnOp:
						if instr.Op == token.MUL {
							loads[gv] = append(loads[gv], instr)
							if !readOnlySlice(instr) {
								written[gv] = true
							}
							if !readOnlyMap(instr, startupCode(fn) || g.calledAtStartupOnly(fn), mapAdds, gv) {
								mapWritten[gv] = true
							}
							continue
						}
					case *ssa.Store:
						if i == 0 && instr.Addr == gv && instr.Val != gv && startupCode(fn) {
							whole[gv] = append(whole[gv], instr.Val)
							if fields[gv] == nil {
								fields[gv] = map[int][]ssa.Value{}
							}
							if !literalFields(instr.Val, fields[gv]) {
								otherFields[gv] = true
							}
							continue
						}
					case *ssa.FieldAddr:
						other[gv] = true
						if fields[gv] == nil {
							fields[gv] = map[int][]ssa.Value{}
						}
						if !fieldStores(instr, startupCode(fn), fields[gv]) {
							otherFields[gv] = true
						}
						continue
					case *ssa.DebugRef:
						continue
					}
					other[gv], otherFields[gv] = true, true
				}
			}
		}
	}
	out := &varStores{whole: map[*ssa.Global][]ssa.Value{}, fields: map[*ssa.Global]map[int][]ssa.Value{}, readOnly: map[*ssa.Global]bool{}, mapAdds: map[*ssa.Global][]ssa.Value{}, loads: loads}
	for gv, vals := range whole {
		if !other[gv] {
			out.whole[gv] = vals
			out.readOnly[gv] = !written[gv]
			if !mapWritten[gv] {
				out.mapAdds[gv] = mapAdds[gv]
			}
		}
	}
	for gv, f := range fields {
		if !otherFields[gv] {
			out.fields[gv] = f
		}
	}
	return out
}

// literalFields adds to fields what a struct value v holds, when it is a
// composite literal (`var upper = formatter{"upper", strings.ToUpper}`
// stores a local struct whose fields' addresses are only stored
// through, loaded whole).
func literalFields(v ssa.Value, fields map[int][]ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	a, ok := u.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	if _, ok := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); !ok {
		return false
	}
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r != u {
				return false
			}
		case *ssa.FieldAddr:
			if !written(r) {
				return false
			}
			for _, st := range *r.Referrers() {
				fields[r.Field] = append(fields[r.Field], st.(*ssa.Store).Val)
			}
		default:
			return false
		}
	}
	return true
}

// calledAtStartupOnly reports whether every call of fn, a function of the
// program whose value is never taken, is a call of start-up code (a
// registration helper init functions call).
func (g *graph) calledAtStartupOnly(fn *ssa.Function) bool {
	if fn.Signature.Recv() != nil || fn.Origin() != nil || fn.Parent() != nil {
		return false
	}
	cs := g.callSites()
	if cs.taken[fn] || len(cs.sites[fn]) == 0 || len(cs.sites[fn]) != len(cs.results[fn]) {
		return false
	}
	for _, c := range cs.results[fn] {
		if !startupCode(c.Parent()) {
			return false
		}
	}
	return true
}

// readOnlyMap reports whether the map load is only looked up, ranged
// over or measured, or, in start-up code, updated (the values it puts
// added to adds[gv]).
func readOnlyMap(load *ssa.UnOp, startup bool, adds map[*ssa.Global][]ssa.Value, gv *ssa.Global) bool {
	if _, ok := load.Type().Underlying().(*types.Map); !ok {
		return false
	}
	for _, r := range *load.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef, *ssa.Lookup, *ssa.Range:
		case *ssa.MapUpdate:
			if !startup || r.Map != load || r.Value == load || r.Key == load {
				return false
			}
			adds[gv] = append(adds[gv], r.Value)
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// mapValues returns the values the map package variable v may hold, when
// only start-up code sets it, each time to a map made there (a literal)
// that is only updated before it is stored, and every load of it is only
// looked up, ranged over or measured, or updated by start-up code: each
// value's edges are v's node's, as for storedValues.
func (g *graph) mapValues(v *ssa.Global) ([]ssa.Value, bool) {
	if !g.traceable(v) {
		return nil, false
	}
	whole, ok := g.stored.whole[v]
	adds, okAdds := g.stored.mapAdds[v]
	if !ok || !okAdds {
		return nil, false
	}
	var out []ssa.Value
	for _, a := range adds {
		if p, ok := a.(*ssa.Parameter); ok {
			// A registration helper's parameter (func register(name
			// string, h handler) { handlers[name] = h }, called only
			// by start-up code): what each call passes.
			args, ok := g.arguments(p)
			if !ok {
				return nil, false
			}
			out = append(out, args...)
			continue
		}
		out = append(out, a)
	}
	for _, w := range whole {
		mm, ok := w.(*ssa.MakeMap)
		if !ok {
			return nil, false
		}
		for _, r := range *mm.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.MapUpdate:
				if r.Map != mm || r.Value == mm || r.Key == mm {
					return nil, false
				}
				out = append(out, r.Value)
			case *ssa.Store:
				if r.Addr != v || r.Val != mm {
					return nil, false
				}
			default:
				return nil, false
			}
		}
	}
	return out, g.keptValues(v, out)
}

// mapLookupValues returns the values a lookup in a map package variable
// may give (mapValues), when the lookup's map is a load of one.
func (g *graph) mapLookupValues(l *ssa.Lookup) ([]ssa.Value, bool) {
	u, ok := l.X.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil, false
	}
	gv, ok := u.X.(*ssa.Global)
	if !ok {
		return nil, false
	}
	if _, ok := gv.Type().(*types.Pointer).Elem().Underlying().(*types.Map); !ok {
		return nil, false
	}
	return g.mapValues(gv)
}

// readOnlySlice reports whether the slice load is only indexed to read
// an element, or measured.
func readOnlySlice(load *ssa.UnOp) bool {
	_, ok := load.Type().Underlying().(*types.Slice)
	return ok && readOnlyElems(load)
}

// fieldStores adds to fields what is stored through the field's address
// fa, and reports whether fa is only loaded, and stored through by
// start-up code.
func fieldStores(fa *ssa.FieldAddr, startup bool, fields map[int][]ssa.Value) bool {
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			if !startup || r.Addr != fa || r.Val == fa {
				return false
			}
			fields[fa.Field] = append(fields[fa.Field], r.Val)
		default:
			return false
		}
	}
	return true
}

// startupCode reports whether fn is a package's initializer or one of
// its init functions.
func startupCode(fn *ssa.Function) bool {
	return fn.Parent() == nil && fn.Signature.Recv() == nil && (fn.Name() == "init" || strings.HasPrefix(fn.Name(), "init#"))
}

// escapes reports whether the closure fn may run in code that never ran
// the code that made it: its value is kept anywhere (stored, returned,
// converted, bound to a closure that escapes) rather than only called,
// where it is made or by the functions it is passed to (notKept).
// Its free variables hold what its maker bound, and the maker's edges to
// what it bound are not the code's that loads the closure from a
// variable and calls it (probe closureescape).
func (g *graph) escapes(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil {
		return true
	}
	seen := map[ssa.Value]bool{}
	made := false
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				made = true
				if !g.notKept(mc, seen) {
					return true
				}
			}
		}
	}
	return !made
}

// elemNotKept reports whether what is stored at ia, an element of a
// slice literal's array (sliceLiteral), is kept nowhere: the slice is
// only passed to functions of the program, whose parameter for it they
// only index to load an element that is only called (notKept), and
// measure.
func (g *graph) elemNotKept(ia *ssa.IndexAddr, seen map[ssa.Value]bool) bool {
	arr, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	var sl *ssa.Slice
	for _, r := range *arr.Referrers() {
		if s, ok := r.(*ssa.Slice); ok {
			if sl != nil {
				return false
			}
			sl = s
		}
	}
	if sl == nil {
		return false
	}
	if _, ok := sliceLiteral(sl); !ok {
		return false
	}
	for _, r := range *sl.Referrers() {
		call, ok := r.(*ssa.Call)
		if !ok || call.Call.IsInvoke() || call.Call.Value == sl {
			return false
		}
		fn := call.Call.StaticCallee()
		if fn == nil || len(fn.Blocks) == 0 || g.isStd(fnPkgPath(fn)) || genericBody(fn) || len(fn.Params) != len(call.Call.Args) {
			return false
		}
		for j, a := range call.Call.Args {
			if a != sl {
				continue
			}
			for _, pr := range *fn.Params[j].Referrers() {
				switch pr := pr.(type) {
				case *ssa.DebugRef:
				case *ssa.IndexAddr:
					for _, rr := range *pr.Referrers() {
						if u, ok := rr.(*ssa.UnOp); !ok || u.Op != token.MUL || !g.notKept(u, seen) {
							return false
						}
					}
				case *ssa.Call:
					if b, ok := pr.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
						return false
					}
				default:
					return false
				}
			}
		}
	}
	return true
}

// notKept reports whether the function value v is kept nowhere, only
// called: by the code that holds it, by the standard library it is passed
// to (what the standard library keeps is charged to the code that made
// it, see docs/audit.md), or by the program's functions it is passed to,
// through their parameters and the free variables of closures that do
// the same.
func (g *graph) notKept(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	if len(seen) > dynTraceLimit {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			common := r.Common()
			if common.Value == v {
				if common.IsInvoke() || slices.Contains(common.Args, v) {
					return false
				}
				continue
			}
			for i, a := range common.Args {
				if a == v && !g.calledBy(r, common, i, seen) {
					return false
				}
			}
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				return false
			}
			for i, b := range r.Bindings {
				if b != v {
					continue
				}
				if i >= len(fn.FreeVars) || !g.notKept(fn.FreeVars[i], seen) || !g.notKept(r, seen) {
					return false
				}
			}
		case *ssa.Store:
			if r.Val != v {
				return false
			}
			if ia, ok := r.Addr.(*ssa.IndexAddr); ok {
				// An element of a slice literal, a variadic call's
				// (apply(s, WithConv(strings.ToUpper))).
				if !g.elemNotKept(ia, seen) {
					return false
				}
				continue
			}
			// Into the cell of a variable closures capture (a
			// parameter a goroutine's closure calls: errgroup's Go).
			cell, ok := r.Addr.(*ssa.Alloc)
			if !ok || !g.cellNotKept(cell, seen) {
				return false
			}
		case *ssa.UnOp:
			// A load of such a cell, through a closure's free
			// variable: what it loads is only called.
			if r.Op != token.MUL || !g.notKept(r, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// cellNotKept reports whether what is stored into the cell of a local
// variable is kept nowhere: the cell is only stored into, loaded into
// values that are only called (notKept), and bound to closures that are
// only called and do the same with it.
func (g *graph) cellNotKept(cell *ssa.Alloc, seen map[ssa.Value]bool) bool {
	if seen[cell] {
		return true
	}
	seen[cell] = true
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != cell || r.Val == cell {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || !g.notKept(r, seen) {
				return false
			}
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok || !g.notKept(r, seen) {
				return false
			}
			for i, b := range r.Bindings {
				if b == cell && (i >= len(fn.FreeVars) || !g.notKept(fn.FreeVars[i], seen)) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// calledBy reports whether the callees of call, given v as its argument
// i, only call it (notKept): the standard library's, and the
// program's through their parameter, for a dynamic call each callee VTA
// resolves it to.
func (g *graph) calledBy(call ssa.CallInstruction, common *ssa.CallCommon, i int, seen map[ssa.Value]bool) bool {
	var callees []*ssa.Function
	if callee := common.StaticCallee(); callee != nil {
		callees = append(callees, callee)
	} else if cn := g.dyn.Nodes[call.Parent()]; cn != nil {
		for _, e := range cn.Out {
			if e.Site == call {
				callees = append(callees, e.Callee.Func)
			}
		}
	}
	if common.IsInvoke() {
		i++ // the receiver is the callee's first parameter
	}
	for _, callee := range callees {
		if g.isStd(fnPkgPath(callee)) {
			continue
		}
		if len(callee.Blocks) == 0 || i >= len(callee.Params) || !g.notKept(callee.Params[i], seen) {
			return false
		}
	}
	return len(callees) > 0 || g.stdMade(common.Value)
}

// cellValues returns the values stored into the local variable whose
// cell addr is (an Alloc, or the free variable a closure holds it by),
// when its address is only loaded, stored into, and bound to closures
// that do the same.
func cellValues(addr ssa.Value) ([]ssa.Value, bool) {
	var cells []ssa.Value
	switch a := addr.(type) {
	case *ssa.Alloc:
		cells = append(cells, a)
	case *ssa.FreeVar:
		bs, ok := bindings(a)
		if !ok {
			return nil, false
		}
		for _, b := range bs {
			alloc, ok := b.(*ssa.Alloc)
			if !ok {
				return nil, false
			}
			cells = append(cells, alloc)
		}
	default:
		return nil, false
	}
	var out []ssa.Value
	seen := map[ssa.Value]bool{}
	for len(cells) > 0 {
		c := cells[len(cells)-1]
		cells = cells[:len(cells)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		refs := c.Referrers()
		if refs == nil {
			return nil, false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.Store:
				if r.Addr != c || r.Val == c {
					return nil, false
				}
				out = append(out, r.Val)
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return nil, false
				}
			case *ssa.MakeClosure:
				fn, ok := r.Fn.(*ssa.Function)
				if !ok {
					return nil, false
				}
				for i, b := range r.Bindings {
					if b == c && i < len(fn.FreeVars) {
						cells = append(cells, fn.FreeVars[i])
					}
				}
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// madeHereCall reports whether the dynamic call common of non-standard
// code needs no edges of its own: a call of a function value that
// madeHere traces, or an invoke of a method on an interface value whose
// dynamic types dynTypes traces all to conversions in the same chain of
// calls. Each conversion's code has the edges to the methods of its
// interface (methodEdges), and each assertion to another interface on
// the way has them to the asserted methods (assertEdges, or the
// conversion's, for the methods the standard library asserts): the
// method invoked is among them (honest sharedhelper's source interface).
func (g *graph) madeHereCall(common *ssa.CallCommon) bool {
	if common.IsInvoke() {
		_, ok := g.dynTypes(common.Value)
		return ok
	}
	return g.madeHere(common.Value)
}

// bindings returns the values the free variable v of a closure is bound
// to where the closure is made: its function is anonymous, made only in
// the function it is nested in.
func bindings(v *ssa.FreeVar) ([]ssa.Value, bool) {
	fn := v.Parent()
	i := -1
	for j, fv := range fn.FreeVars {
		if fv == v {
			i = j
		}
	}
	parent := fn.Parent()
	if i < 0 || parent == nil {
		return nil, false
	}
	var out []ssa.Value
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if i >= len(mc.Bindings) {
					return nil, false
				}
				out = append(out, mc.Bindings[i])
			}
		}
	}
	return out, len(out) > 0
}

// methodArguments returns the values every call of p's method passes as
// p, when those calls are all static calls of the program: the method's
// value is never taken, and no value of its receiver's type, nor of a
// pointer to it, is ever made into an interface (through which the
// standard library, a template or another package could call it) or
// made by reflection.
func (g *graph) methodArguments(p *ssa.Parameter) ([]ssa.Value, bool) {
	fn := p.Parent()
	recv := fn.Signature.Recv()
	if recv == nil || g.funcs == nil || fn.Origin() != nil {
		return nil, false
	}
	i := -1
	for j, q := range fn.Params {
		if q == p {
			i = j
		}
	}
	if i <= 0 { // the receiver itself, or not a parameter
		return nil, false
	}
	t := recv.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	if g.inInterface(t) {
		return nil, false
	}
	cs := g.callSites()
	if g.neverCalled(fn, cs.sites[fn], cs.taken[fn]) {
		return nil, true
	}
	return argsAt(cs.sites[fn], cs.taken[fn], i)
}

// receiverFieldValues returns the values the field i of what
// the pointer receiver p points to may hold: every call of the method
// passes a struct the caller made (&Cache{load: f}), and an unexported
// field is written nowhere in the program but where such a struct is
// made (fieldSetAtLiterals): what each one's literal stores there; or,
// for any field, what is stored through the pointer to each such
// struct, which is kept nowhere (ptrFieldStores).
//
// With sub ≥ 0, the field i holds a struct (type client struct{ cfg
// Config }), and the values are those of its field sub (c.cfg.Runner),
// traced where the receiver's pointer goes (ptrFieldStores).
func (g *graph) receiverFieldValues(p *ssa.Parameter, i, sub int) ([]ssa.Value, bool) {
	fn := p.Parent()
	recv := fn.Signature.Recv()
	if recv == nil || g.funcs == nil || genericBody(fn) || len(fn.Params) == 0 || fn.Params[0] != p {
		return nil, false
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return nil, false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil, false
	}
	// An exported field, which reflection may set through any pointer
	// (json.Unmarshal), is traced only where the pointer goes, as is a
	// field of a struct field.
	atLiterals := sub < 0 && !st.Field(i).Exported() && g.fieldSetAtLiterals(ptr.Elem(), i)
	cs := g.callSites()
	if cs.taken[fn] {
		return nil, false
	}
	var args []ssa.Value
	if len(cs.sites[fn]) > 0 {
		if args, ok = argsAt(cs.sites[fn], false, 0); !ok {
			return nil, false
		}
	}
	if g.heldByInterface(ptr.Elem()) {
		// Held in interfaces too: the pointers converted, when each
		// conversion stays in its chain of calls.
		convs, ok := g.localPtrConversions(ptr)
		if !ok {
			return nil, false
		}
		args = append(args, convs...)
	}
	if len(args) == 0 {
		return nil, false
	}
	field := []int{i}
	if sub >= 0 {
		field = append(field, sub)
	}
	type made struct {
		alloc *ssa.Alloc
		path  []int
	}
	var allocs []made
	for _, a := range args {
		var outer []int
		if fa, ok := a.(*ssa.FieldAddr); ok {
			// A struct embedded in, or held by, one the caller made
			// (s.notify(…) of a promoted method, &s.base): traced
			// where the outer struct's pointer goes.
			if _, isStruct := fa.Type().(*types.Pointer).Elem().Underlying().(*types.Struct); !isStruct {
				return nil, false
			}
			a, outer = fa.X, []int{fa.Field}
		}
		structs, ok := g.madeStruct(a)
		if !ok {
			return nil, false
		}
		for _, alloc := range structs {
			allocs = append(allocs, made{alloc, append(outer, field...)})
		}
	}
	var out []ssa.Value
	for _, m := range allocs {
		alloc := m.alloc
		if !atLiterals || len(m.path) > 1 {
			// Set elsewhere too (a functional option, func(s *service)
			// { s.r = r }): where the struct's pointer goes.
			vals, ok := g.ptrFieldStores(alloc, m.path)
			if !ok {
				return nil, false
			}
			out = append(out, vals...)
			continue
		}
		for _, r := range *alloc.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
				return nil, false // the whole struct stored (*c = Cache{…})
			}
			if fa, ok := r.(*ssa.FieldAddr); ok && fa.Field == i {
				for _, rr := range *fa.Referrers() {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == fa {
						out = append(out, st.Val)
					}
				}
			}
		}
	}
	return out, true
}

// madeStruct returns the structs the pointer a is to, when it is a
// struct its code made (&cache{load: f}), or the result of a call of a
// function of the program that returns only such structs, a
// constructor's (NewCache(f)), or the results of other such calls (a
// helper that returns NewCache(f)), four calls deep at most.
func (g *graph) madeStruct(a ssa.Value) ([]*ssa.Alloc, bool) {
	return g.madeStructs(a, 4)
}

func (g *graph) madeStructs(a ssa.Value, depth int) ([]*ssa.Alloc, bool) {
	var call *ssa.Call
	index := 0
	switch a := a.(type) {
	case *ssa.Alloc:
		return []*ssa.Alloc{a}, true
	case *ssa.Const:
		// A nil pointer (return nil, err), which holds no struct.
		return nil, a.IsNil()
	case *ssa.Call:
		if a.Call.Signature().Results().Len() != 1 {
			return nil, false
		}
		call = a
	case *ssa.Parameter:
		// The receiver of a builder's method (func (s *service)
		// WithRunner(r runner) *service { s.r = r; return s }): what
		// each call passes.
		fn := a.Parent()
		if depth == 0 || fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Params[0] != a || !g.staticOnly(fn) {
			return nil, false
		}
		cs := g.callSites()
		args, ok := argsAt(cs.sites[fn], false, 0)
		if !ok {
			return nil, false
		}
		return g.madeStructsOf(args, depth-1)
	case *ssa.Extract:
		// A constructor's with an error (s, err := newService(…)).
		c, ok := a.Tuple.(*ssa.Call)
		if !ok {
			return nil, false
		}
		call, index = c, a.Index
	case *ssa.UnOp:
		// A package variable only start-up code sets (var echoSvc =
		// newService(echoRunner{})): what it stores there. What the
		// start-up code made is charged to it, or to the variable's
		// users (maker); its field is traced where the struct's pointer
		// goes from there (ptrFieldStores), every load of the variable
		// among them.
		gv, ok := a.X.(*ssa.Global)
		if a.Op != token.MUL || !ok || depth == 0 || !g.traceable(gv) {
			return nil, false
		}
		stored, ok := g.stored.whole[gv]
		if !ok {
			return nil, false
		}
		return g.madeStructsOf(stored, depth-1)
	}
	if call != nil {
		if depth == 0 {
			return nil, false
		}
		rs, ok := g.returned(call, index)
		if !ok {
			return nil, false
		}
		return g.madeStructsOf(rs, depth-1)
	}
	return nil, false
}

// madeStructsOf is madeStructs of each of vs.
func (g *graph) madeStructsOf(vs []ssa.Value, depth int) ([]*ssa.Alloc, bool) {
	var out []*ssa.Alloc
	for _, v := range vs {
		allocs, ok := g.madeStructs(v, depth)
		if !ok {
			return nil, false
		}
		out = append(out, allocs...)
	}
	return out, true
}

// fieldSetAtLiterals reports whether every store into the field i of a
// struct of type t, anywhere in the program, is into a struct made in the
// same function (a literal's, &T{f: v}), never through a pointer from
// elsewhere, and no struct of type t is stored whole but into a local
// variable.
func (g *graph) fieldSetAtLiterals(t types.Type, i int) bool {
	if g.converted(t) {
		return false // its field may be set as the other's (probe convalias)
	}
	for fn := range g.callSites().all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if types.Identical(st.Val.Type(), t) {
					// The whole struct stored (*c = Cache{…}), but
					// into a local variable.
					if _, ok := st.Addr.(*ssa.Alloc); !ok {
						return false
					}
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || fa.Field != i || !types.Identical(fa.X.Type().Underlying().(*types.Pointer).Elem(), t) {
					continue
				}
				if _, ok := fa.X.(*ssa.Alloc); !ok {
					return false
				}
			}
		}
	}
	return true
}

// ptrFieldStores returns the values stored into the field reached by
// path (field indices, each but the last of a struct held by value: a
// configuration, c.cfg.Runner; an embedded struct, s.base.n) of the
// struct a made, when its pointer is kept nowhere, so that every store
// through it is one of the program's code this finds: the pointer, and
// what it becomes, is only
//   - loaded whole, compared, or had a field's address taken that is only
//     loaded and stored through (another field's also passed to the
//     standard library's methods: s.mu.Lock());
//   - for a field on the path, followed as a pointer itself, to the next
//     field (&s.base passed to a method of the embedded struct);
//   - stored into whole, when it points to a field on the path, each
//     value traced by structFieldValues;
//   - passed to functions of the program (programCallees: a functional
//     option, o(s); a method), whose parameter is followed;
//   - returned by a function of the program whose every call is a static
//     call whose result is followed (staticOnly: a constructor,
//     newService(opts...); a builder's method, s.WithRunner(r)).
//
// Stored into a package variable only start-up code sets, it is followed
// from every load of the variable, where the field is only read: a
// service made at start-up (var echoSvc = newService(echoRunner{})).
// Stored anywhere else, converted (to an interface, to unsafe.Pointer),
// bound to a closure or passed to the standard library, it is not traced.
func (g *graph) ptrFieldStores(a *ssa.Alloc, path []int) ([]ssa.Value, bool) {
	const limit = 256 // values followed
	cs := g.callSites()
	var out []ssa.Value
	// A pointer loaded from a package variable is shared: any code that
	// loads the variable holds it, and what that code stores into the
	// field runs in every other user's chain with its maker's edges
	// elsewhere. Through it the field is only read.
	type ptr struct {
		v      ssa.Value
		depth  int // path[depth] is the field of what v points to
		shared bool
	}
	seen := map[ptr]bool{}
	work := []ptr{{a, 0, false}}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[p] {
			continue
		}
		if seen[p] = true; len(seen) > limit {
			return nil, false
		}
		v, i := p.v, path[p.depth]
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return nil, false
				}
			case *ssa.BinOp:
				if r.Op != token.EQL && r.Op != token.NEQ {
					return nil, false
				}
			case *ssa.Phi:
				work = append(work, ptr{r, p.depth, p.shared})
			case *ssa.FieldAddr:
				var vals []ssa.Value
				ok := true
				switch {
				case r.Field == i && p.depth < len(path)-1:
					work = append(work, ptr{r, p.depth + 1, p.shared})
				case r.Field == i:
					vals, ok = fieldStored(r)
				default:
					ok = g.otherFieldUsed(r)
				}
				if !ok || p.shared && len(vals) > 0 {
					return nil, false
				}
				out = append(out, vals...)
			case *ssa.Store:
				if r.Addr == v && r.Val != v && p.depth > 0 {
					// A struct on the path stored whole (c.cfg =
					// cfg): its field's values.
					vals, ok := g.structFieldValues(r.Val, i)
					if !ok || p.shared && len(vals) > 0 {
						return nil, false
					}
					out = append(out, vals...)
					continue
				}
				// Kept in a package variable only start-up code sets
				// (var echoSvc = newService(…)): followed from every
				// load of it, shared.
				gv, ok := r.Addr.(*ssa.Global)
				if !ok || r.Val != v || p.shared || p.depth > 0 || !startupCode(r.Parent()) || !g.traceable(gv) {
					return nil, false
				}
				if _, ok := g.stored.whole[gv]; !ok {
					return nil, false
				}
				for _, load := range g.stored.loads[gv] {
					work = append(work, ptr{load, 0, true})
				}
			case ssa.CallInstruction:
				common := r.Common()
				callees, ok := g.programCallees(common)
				if !ok || common.Value == v {
					return nil, false
				}
				for _, fn := range callees {
					for j, arg := range common.Args {
						if arg == v {
							work = append(work, ptr{fn.Params[j], p.depth, p.shared})
						}
					}
				}
			case *ssa.Return:
				fn := r.Parent()
				// Every call of fn has its result among cs.results:
				// a closure's calls have none there, nor do a method's
				// through an interface.
				if !g.staticOnly(fn) || genericBody(fn) || fn.Origin() != nil ||
					len(cs.results[fn]) != len(cs.sites[fn]) {
					return nil, false
				}
				k := slices.Index(r.Results, v)
				if k < 0 || slices.Contains(r.Results[k+1:], v) {
					return nil, false
				}
				for _, c := range cs.results[fn] {
					if len(r.Results) == 1 {
						work = append(work, ptr{c, p.depth, p.shared})
						continue
					}
					for _, rr := range *c.Referrers() {
						if e, ok := rr.(*ssa.Extract); ok && e.Index == k {
							work = append(work, ptr{e, p.depth, p.shared})
						}
					}
				}
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// otherFieldUsed reports whether the field address fa, of a field other
// than the one traced, is only loaded and stored through, or is the
// receiver of the standard library's methods (s.mu.Lock()), which reach
// no other field of the struct.
func (g *graph) otherFieldUsed(fa *ssa.FieldAddr) bool {
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			if r.Addr != fa || r.Val == fa {
				return false
			}
		case ssa.CallInstruction:
			common := r.Common()
			fn := common.StaticCallee()
			if fn == nil || fn.Signature.Recv() == nil || !g.isStd(fnPkgPath(fn)) ||
				len(common.Args) == 0 || common.Args[0] != fa || slices.Contains(common.Args[1:], ssa.Value(fa)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// staticOnly reports whether every call of fn is a static call of the
// program (callSites): its value is never taken, and, for a method, no
// value of its receiver's type, nor of a pointer to it, is ever made into
// an interface or by reflection (inInterface).
func (g *graph) staticOnly(fn *ssa.Function) bool {
	if g.funcs == nil || g.callSites().taken[fn] {
		return false
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	return !g.inInterface(t)
}

// receiverArguments returns the receivers every call of p's method
// passes, when p is the value receiver of a method of a struct type no
// interface may hold (inInterface), whose value is never taken: its
// calls are all static calls of the program.
func (g *graph) receiverArguments(p *ssa.Parameter) ([]ssa.Value, bool) {
	fn := p.Parent()
	recv := fn.Signature.Recv()
	if recv == nil || g.funcs == nil || fn.Origin() != nil || len(fn.Params) == 0 || fn.Params[0] != p {
		return nil, false
	}
	if _, ptr := recv.Type().(*types.Pointer); ptr {
		return nil, false
	}
	if g.inInterface(recv.Type()) {
		return nil, false
	}
	cs := g.callSites()
	return argsAt(cs.sites[fn], cs.taken[fn], 0)
}

// ifaceReceivers returns the receivers p's method runs on, when p is the
// value receiver of a method of a struct type of the program that
// interfaces hold (type trimmed struct{ lookuper }, called as
// show(trimmed{upper{}}, s)), and every value of the type the method may
// run on is a struct literal of the code that calls the method or
// converts the struct to an interface: each conversion is only invoked
// or passed to functions of the program that only invoke it or pass it
// on so (ifaceNotKept), no conversion is of a pointer to the type, the
// method's value is never taken, no other runtime type holds the type
// (reflection could reach it there), and it is no type argument. Then
// the struct a call of the method is given was made in the same chain of
// calls, and so was what its fields hold.
func (g *graph) ifaceReceivers(p *ssa.Parameter) ([]ssa.Value, bool) {
	fn := p.Parent()
	recv := fn.Signature.Recv()
	if recv == nil || g.funcs == nil || fn.Origin() != nil || len(fn.Params) == 0 || fn.Params[0] != p {
		return nil, false
	}
	named, ok := g.ownedStruct(recv.Type())
	if !ok {
		return nil, false
	}
	ptr := types.NewPointer(named)
	if g.conversions.At(ptr) != nil {
		return nil, false
	}
	cs := g.callSites()
	if cs.taken[fn] {
		return nil, false
	}
	var out []ssa.Value
	for _, site := range cs.sites[fn] {
		if len(site.Args) > 0 && g.pointerWrapperCall(site.Args[0], ptr) {
			continue
		}
		if len(site.Args) == 0 || !structLiteral(site.Args[0]) {
			return nil, false
		}
		out = append(out, site.Args[0])
	}
	convs, _ := g.conversions.At(named).([]*ssa.MakeInterface)
	for _, mi := range convs {
		if !structLiteral(mi.X) || !g.ifaceNotKept(mi, map[ssa.Value]bool{}) {
			return nil, false
		}
		out = append(out, mi.X)
	}
	return out, true
}

// pointerWrapperCall reports whether recv, the receiver a call of a
// method of ptr's element type is given, is the load of the receiver of
// the method's wrapper for ptr, which the SSA builder makes for the
// method set of ptr (a runtime type beside the element's), when the
// wrapper is never called but through an interface: nothing calls it
// directly or takes its value. ifaceReceivers checks that no pointer of
// the type is converted to an interface.
func (g *graph) pointerWrapperCall(recv ssa.Value, ptr types.Type) bool {
	u, ok := recv.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	x := u.X
	if c, ok := x.(*ssa.Call); ok {
		// ssa:wrapnilchk(p, …), the wrapper's check of a nil receiver.
		if b, ok := c.Call.Value.(*ssa.Builtin); !ok || b.Name() != "ssa:wrapnilchk" || len(c.Call.Args) == 0 {
			return false
		}
		x = c.Call.Args[0]
	}
	p, ok := x.(*ssa.Parameter)
	if !ok {
		return false
	}
	w := p.Parent()
	if w.Synthetic == "" || w.Signature.Recv() == nil || len(w.Params) == 0 || w.Params[0] != p || !types.Identical(w.Signature.Recv().Type(), ptr) {
		return false
	}
	cs := g.callSites()
	return !cs.taken[w] && len(cs.sites[w]) == 0
}

// localPtrConversions returns the pointers ptr's values converted to
// interfaces are, when ptr points to a struct type of the program that
// no other runtime type holds and that is no type argument, and each
// conversion is kept nowhere (ifaceNotKept) or only returned by a
// function whose every call keeps its result nowhere (a decorator,
// withCache(f) fetcher { return &cached{next: f} }). Then a method of
// ptr invoked through an interface runs on a pointer converted in the
// same chain of calls.
func (g *graph) localPtrConversions(ptr *types.Pointer) ([]ssa.Value, bool) {
	if _, ok := g.ownedStruct(ptr.Elem()); !ok {
		return nil, false
	}
	convs, _ := g.conversions.At(ptr).([]*ssa.MakeInterface)
	var out []ssa.Value
	for _, mi := range convs {
		if !g.ifaceNotKept(mi, map[ssa.Value]bool{}) && !g.returnedIface(mi) {
			return nil, false
		}
		out = append(out, mi.X)
	}
	return out, true
}

// returnedIface reports whether the interface value mi is only returned,
// as the one result of a function of the program whose value is never
// taken, and every call of that function keeps the result nowhere
// (ifaceNotKept).
func (g *graph) returnedIface(mi *ssa.MakeInterface) bool {
	for _, r := range *mi.Referrers() {
		switch r.(type) {
		case *ssa.DebugRef, *ssa.Return:
		default:
			return false
		}
	}
	fn := mi.Parent()
	if fn.Signature.Results().Len() != 1 || fn.Origin() != nil || genericBody(fn) {
		return false
	}
	cs := g.callSites()
	if cs.taken[fn] || len(cs.results[fn]) == 0 || len(cs.sites[fn]) != len(cs.results[fn]) {
		return false
	}
	for _, call := range cs.results[fn] {
		if !g.ifaceNotKept(call, map[ssa.Value]bool{}) {
			return false
		}
	}
	return true
}

// ownedStruct returns t as a named struct type of the program, when
// reflection cannot reach its values but from a conversion of its own:
// it is no instance of a generic type, no type argument (nor a pointer
// to it), and no part of another runtime type. It makes g.conversions
// (indexIfaces) for its callers.
func (g *graph) ownedStruct(t types.Type) (*types.Named, bool) {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || g.isStd(named.Obj().Pkg().Path()) || named.TypeArgs().Len() > 0 {
		return nil, false
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil, false
	}
	ptr := types.NewPointer(named)
	for _, t := range g.instances {
		if types.Identical(t, named) || types.Identical(t, ptr) {
			return nil, false
		}
	}
	g.indexIfaces()
	return named, g.partOfIface.At(named) == nil
}

// indexIfaces makes g.partOfIface and g.conversions, once.
func (g *graph) indexIfaces() {
	if g.partOfIface != nil {
		return
	}
	g.partOfIface = &typeutil.Map{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		t = types.Unalias(t)
		if g.partOfIface.Set(t, true) != nil {
			return
		}
		typeParts(t, walk)
	}
	for _, rt := range g.prog.RuntimeTypes() {
		// A pointer to a runtime type is one too (its method set),
		// which holds nothing but what the pointers the program
		// converts point to (g.conversions says which).
		if p, ok := types.Unalias(rt).(*types.Pointer); ok {
			rt = p.Elem()
		}
		typeParts(rt, walk)
	}
	g.conversions = &typeutil.Map{}
	for fn := range g.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					t := mi.X.Type()
					convs, _ := g.conversions.At(t).([]*ssa.MakeInterface)
					g.conversions.Set(t, append(convs, mi))
				}
			}
		}
	}
}

// structLiteral reports whether v is a struct literal: a load of a
// local variable of its function that is only loaded and whose fields
// are only loaded and stored into (trimmed{upper{}}).
func structLiteral(v ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	a, ok := u.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.FieldAddr:
			if _, ok := fieldStored(r); !ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fieldStored returns the values stored through fa, when fa is only
// loaded and stored through.
func fieldStored(fa *ssa.FieldAddr) ([]ssa.Value, bool) {
	var out []ssa.Value
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil, false
			}
		case *ssa.Store:
			if r.Addr != fa || r.Val == fa {
				return nil, false
			}
			out = append(out, r.Val)
		default:
			return nil, false
		}
	}
	return out, true
}

// ifaceNotKept reports whether the interface value v is kept nowhere:
// only invoked, or passed to functions of the program (static calls)
// whose parameter for it is only invoked or passed on so.
func (g *graph) ifaceNotKept(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	if len(seen) > dynTraceLimit {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			common := &r.Call
			if common.IsInvoke() && common.Value == v {
				if slices.Contains(common.Args, v) {
					return false
				}
				continue
			}
			fn := common.StaticCallee()
			if fn == nil || len(fn.Blocks) == 0 || g.isStd(fnPkgPath(fn)) || genericBody(fn) || len(fn.Params) != len(common.Args) {
				return false
			}
			for j, a := range common.Args {
				if a == v && !g.ifaceNotKept(fn.Params[j], seen) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// inInterface reports whether a value of t or *t may be held by an
// interface, or reached by reflection from one: t is not a named type of
// a package outside the standard library, or a runtime type of the
// program (a type made into an interface) is or holds t (fields,
// elements, keys, pointers, a func's parameters and results, as
// reflection walks them).
func (g *graph) inInterface(t types.Type) bool {
	if named, ok := types.Unalias(t).(*types.Named); ok && named.TypeArgs().Len() > 0 {
		return true
	}
	return g.heldByInterface(t)
}

// heldByInterface is inInterface for an instance of a generic type too,
// which a runtime type names as it names any other (Cache[string,
// string]).
func (g *graph) heldByInterface(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || g.isStd(named.Obj().Pkg().Path()) {
		return true
	}
	if g.heldByIface == nil {
		g.heldByIface = &typeutil.Map{}
		var walk func(t types.Type)
		walk = func(t types.Type) {
			t = types.Unalias(t)
			if g.heldByIface.Set(t, true) != nil {
				return
			}
			typeParts(t, walk)
		}
		for _, rt := range g.prog.RuntimeTypes() {
			walk(rt)
		}
	}
	return g.heldByIface.At(named) != nil
}
