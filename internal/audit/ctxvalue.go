package audit

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// contextValues returns the values a call ctx.Value(key) may give, when
// key is a value of a type of the program the audit traces (ctxKey{}):
// the values every context.WithValue call of the program's code stores
// under a key of that type (honest ctxrecorder: a recorder each tool puts
// in its own context, taken out by a shared helper). It fails when a
// call's key may be of that type without the audit seeing it, or when a
// type of the program has a Value method of its own that a context may
// run. A context kept beyond its chain of calls (in a variable, sent on a
// channel) keeps what it holds there for whoever uses it, as the standard
// library's summary has it (probes ctxchain, ctxparent).
func (g *graph) contextValues(call *ssa.CallCommon) ([]ssa.Value, bool) {
	if !call.IsInvoke() || call.Method.Name() != "Value" || !isContext(call.Value.Type()) || len(call.Args) != 1 {
		return nil, false
	}
	keys, ok := g.dynTypes(call.Args[0])
	if !ok || len(keys) != 1 || g.stdType(keys[0]) {
		return nil, false
	}
	key := keys[0]
	idx := g.contextIndex(call.Value.Type().Underlying().(*types.Interface))
	if idx.ownValue {
		return nil, false
	}
	var out []ssa.Value
	for _, site := range idx.withValue {
		c := site.Common()
		ts, ok := g.dynTypes(c.Args[1])
		if !ok {
			return nil, false // a key the audit cannot tell
		}
		for _, t := range ts {
			if types.Identical(t, key) {
				// Only a context that stays in its chain of calls:
				// one another tool's code may get could hold another
				// tool's value (probes ctxgosend, ctxslicesend).
				if res := callValue(site); res == nil || !g.ctxKeptNowhere(res, map[ssa.Value]bool{}) {
					return nil, false
				}
				out = append(out, c.Args[2])
				break
			}
		}
	}
	return out, true
}

// ctxKeptNowhere reports whether the context v, and every context made
// from it, is kept nowhere: only asked (its methods called), passed to
// functions of the program whose parameter is followed, returned by one
// whose every call is a static call whose result is followed, or given
// to a function of the standard library that returns a context made from
// it (context.WithCancel), which is followed. Stored, sent, bound to a
// closure or converted, it may reach code that never ran its maker.
func (g *graph) ctxKeptNowhere(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	if seen[v] = true; len(seen) > dynTraceLimit {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	cs := g.callSites()
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Phi:
			if !g.ctxKeptNowhere(r, seen) {
				return false
			}
		case *ssa.Return:
			fn := r.Parent()
			if !g.staticOnly(fn) || len(cs.results[fn]) != len(cs.sites[fn]) || len(r.Results) != 1 {
				return false
			}
			for _, c := range cs.results[fn] {
				if !g.ctxKeptNowhere(c, seen) {
					return false
				}
			}
		case ssa.CallInstruction:
			common := r.Common()
			if common.IsInvoke() && common.Value == v {
				if slices.Contains(common.Args, v) {
					return false
				}
				continue // its own method
			}
			callee := common.StaticCallee()
			if callee == nil || common.Value == v {
				return false
			}
			if g.isStd(fnPkgPath(callee)) {
				// A context made from it, followed; anything else the
				// standard library does with a context it is given
				// ends with the call.
				if res := callValue(r); res != nil && !g.ctxResults(res, seen) {
					return false
				}
				continue
			}
			for i, a := range common.Args {
				if a == v && (i >= len(callee.Params) || !g.ctxKeptNowhere(callee.Params[i], seen)) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// ctxResults reports whether the contexts among the results of a call of
// the standard library (res, or its tuple's Extracts) are kept nowhere.
func (g *graph) ctxResults(res ssa.Value, seen map[ssa.Value]bool) bool {
	if _, tuple := res.Type().(*types.Tuple); tuple {
		for _, r := range *res.Referrers() {
			if e, ok := r.(*ssa.Extract); ok && isContext(e.Type()) && !g.ctxKeptNowhere(e, seen) {
				return false
			}
		}
		return true
	}
	return !isContext(res.Type()) || g.ctxKeptNowhere(res, seen)
}

// contextIndex holds the program's context.WithValue calls and whether a
// context may hold what the audit does not see: a type of the program
// has a Value method of a context's own, or context.WithValue's value is
// taken.
type contextIndex struct {
	withValue []ssa.CallInstruction
	ownValue  bool
}

// contextIndex returns the program's contextIndex, made once; ctx is
// context.Context's interface.
func (g *graph) contextIndex(ctx *types.Interface) *contextIndex {
	if g.ctxIdx != nil {
		return g.ctxIdx
	}
	idx := &contextIndex{}
	g.ctxIdx = idx
	for fn := range g.callSites().all {
		if g.isStd(fnPkgPath(fn)) {
			continue
		}
		if recv := fn.Signature.Recv(); fn.Name() == "Value" && recv != nil && types.Implements(recv.Type(), ctx) {
			idx.ownValue = true // a context of the program's own
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				common := call.Common()
				if callee := common.StaticCallee(); callee != nil && callee.String() == "context.WithValue" && len(common.Args) == 3 {
					idx.withValue = append(idx.withValue, call)
				}
			}
		}
	}
	if p := g.prog.ImportedPackage("context"); p != nil {
		if fn := p.Func("WithValue"); fn != nil && g.callSites().taken[fn] {
			// Called through a function value: its keys and
			// values are not seen.
			idx.ownValue = true
		}
	}
	return idx
}
