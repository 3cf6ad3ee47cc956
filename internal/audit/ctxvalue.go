package audit

import (
	"go/types"

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
	for _, c := range idx.withValue {
		ts, ok := g.dynTypes(c.Args[1])
		if !ok {
			return nil, false // a key the audit cannot tell
		}
		for _, t := range ts {
			if types.Identical(t, key) {
				out = append(out, c.Args[2])
				break
			}
		}
	}
	return out, true
}

// contextIndex holds the program's context.WithValue calls and whether a
// context may hold what the audit does not see: a type of the program
// has a Value method of a context's own, or context.WithValue's value is
// taken.
type contextIndex struct {
	withValue []*ssa.CallCommon
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
					idx.withValue = append(idx.withValue, common)
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
