package audit

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// structConv holds what the program's conversions between two struct
// types of the same fields ((*view)(s), a pointer to one converted to a
// pointer to the other) hide: VTA keeps a field's values apart per struct
// type, so what one tool stores into a field of the view another reads
// from the field of the original with no edge (probe convvta), and the
// rules that take a field to be set only by literals or only read, which
// look at one struct type, miss the stores through the other (probes
// convalias, convsteps). So do type assertions to a pointer to an
// interface or a function (any(&s.R).(*runner)): VTA does not link a
// store through the pointer to the variable it points to (probes
// reflectaddr, elemptr).
type structConv struct {
	// structs holds both struct types of every such conversion.
	structs typeutil.Map
	// ifaces and sigs hold the interface and function types of their
	// fields (and of the fields of the structs and arrays they hold by
	// value).
	ifaces, sigs []types.Type
}

// structConvs returns the program's structConv, made once.
func (g *graph) structConvs() *structConv {
	if g.convs != nil {
		return g.convs
	}
	c := &structConv{}
	g.convs = c
	var seen typeutil.Map
	for fn := range g.callSites().all {
		if g.isStd(fnPkgPath(fn)) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var from, to types.Type
				switch instr := instr.(type) {
				case *ssa.ChangeType:
					from, to = instr.X.Type(), instr.Type()
				case *ssa.Convert:
					from, to = instr.X.Type(), instr.Type()
				case *ssa.TypeAssert:
					// A pointer to an interface or a function taken
					// out of an interface (any(&s.R).(*runner),
					// Field(0).Addr().Interface()): a store through it
					// writes a variable VTA does not link it to
					// (probes reflectaddr, elemptr).
					if p, ok := instr.AssertedType.Underlying().(*types.Pointer); ok {
						switch p.Elem().Underlying().(type) {
						case *types.Interface, *types.Signature:
							c.addFields(p.Elem())
						}
					}
					continue
				default:
					continue
				}
				if types.Identical(from, to) {
					continue
				}
				if p, ok := from.Underlying().(*types.Pointer); ok {
					from = p.Elem()
				}
				if p, ok := to.Underlying().(*types.Pointer); ok {
					to = p.Elem()
				}
				for _, t := range []types.Type{from, to} {
					if _, ok := t.Underlying().(*types.Struct); !ok || seen.Set(t, true) != nil {
						continue
					}
					c.structs.Set(t, true)
					c.addFields(t.Underlying())
				}
			}
		}
	}
	return c
}

// addFields adds the interface and function types t holds by value.
func (c *structConv) addFields(t types.Type) {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for f := range u.Fields() {
			c.addFields(f.Type())
		}
	case *types.Array:
		c.addFields(u.Elem())
	case *types.Interface:
		c.ifaces = append(c.ifaces, t)
	case *types.Signature:
		c.sigs = append(c.sigs, t)
	}
}

// converted reports whether the struct type t is one side of such a
// conversion.
func (g *graph) converted(t types.Type) bool {
	return g.structConvs().structs.At(t) != nil
}

// convEdges adds to n, which makes the dynamic call common at pos that
// VTA resolves, what a store through a converted struct may have put
// where the call finds it: for a method of an interface a field of such
// a struct may hold (or be converted to), every implementation of it
// reflection reaches (implementers, as for a type assertion the audit
// cannot trace); for a function of the type of such a field, every
// function of that type whose value the program takes.
func (g *graph) convEdges(n *node, common *ssa.CallCommon, pos token.Pos) {
	c := g.structConvs()
	if common.IsInvoke() {
		it, ok := common.Value.Type().Underlying().(*types.Interface)
		if !ok || !slices.ContainsFunc(c.ifaces, func(f types.Type) bool { return types.Implements(f, it) }) {
			return
		}
		m := common.Method
		for _, fn := range g.implementers(methodKey(m.Name(), m.Type())) {
			n.out = append(n.out, edge{g.nodeOf(fn), pos})
		}
		return
	}
	sig := common.Signature()
	if !slices.ContainsFunc(c.sigs, func(f types.Type) bool { return types.Identical(f.Underlying(), sig) }) {
		return
	}
	g.takenEdges(n, sig, pos)
}
