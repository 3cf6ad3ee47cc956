package audit

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// The standard library's package state. A function value or an interface
// the program hands to the standard library is charged to the code that
// made it (the maker runs before the call, in the same execution), but
// some functions keep what they are given in their package's variables
// (http.HandleFunc in DefaultServeMux, log.SetOutput in the default
// Logger, slog.SetDefault, sql.Register…), and whoever uses those later
// calls it: another tool, which never ran the maker (probe servemux: a
// tool serving a request with DefaultServeMux ran the handler another tool
// had registered). So the summary tells, for each function of the
// standard library, which of its parameters it may keep in which package
// variable of the standard library (directly, or in the memory of another
// parameter, such as a method's receiver, which the caller may take from a
// variable), which variables' memory its results may point into, and
// which of those variables it reads; the program's values kept there, and
// the values the program stores there itself (http.DefaultClient.Transport
// = t), are edges of a node for the variable (keptNode), which every
// function of the program that reads the variable, or calls a function of
// the standard library that does, reaches.

// keepAnalysis holds the facts of the standard library's functions, by
// function, parameters numbered as fn.Params.
type keepAnalysis struct {
	keepG map[*ssa.Function]map[int]map[*ssa.Global]bool // param → variables it may be kept in
	keepP map[*ssa.Function]map[int]map[int]bool         // param → params it may be kept in the memory of
	retG  map[*ssa.Function]map[*ssa.Global]bool         // variables a result may point into
	keepR map[*ssa.Function]uint64                       // params a result may hold or point to memory holding

	holders  typeutil.Map // types.Type → bool, holder(t, false)
	varHolds map[*ssa.Global]bool
}

// keepState is the per-function state of the analysis.
type keepState struct {
	a      *keepAnalysis
	fn     *ssa.Function
	roots  map[ssa.Value]map[ssa.Value]bool
	allocs map[ssa.Value]uint64 // the params a local allocation may hold
	stored map[*ssa.Alloc][]ssa.Value
}

// addrAlloc returns the local allocation addr is the address of, or of a
// field or element of.
func addrAlloc(addr ssa.Value) *ssa.Alloc {
	a, _ := addrRoot(addr, true).(*ssa.Alloc)
	return a
}

// addrRoot returns what addr is the address of, or of a field or element
// of: through the elements of a slice's array too when elems is set.
func addrRoot(addr ssa.Value, elems bool) ssa.Value {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Slice); ok && !elems {
				return nil
			}
			addr = a.X
		default:
			return addr
		}
	}
}

// mayPoint reports whether a value of t can refer to memory: anything but
// a basic type.
func mayPoint(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return !ok || b.Kind() == types.UnsafePointer
}

// callee returns the function whose facts a call uses: the origin of an
// instance without a body.
func keepCallee(common *ssa.CallCommon) *ssa.Function {
	c := common.StaticCallee()
	if c != nil && len(c.Blocks) == 0 && c.Origin() != nil {
		c = c.Origin()
	}
	return c
}

// rootsOf returns what memory v may point into: package variables,
// parameters and local allocations.
func (s *keepState) rootsOf(v ssa.Value) map[ssa.Value]bool {
	if r, ok := s.roots[v]; ok {
		return r
	}
	s.roots[v] = nil // a cycle through φ-nodes adds nothing
	out := map[ssa.Value]bool{}
	add := func(x ssa.Value) {
		for r := range s.rootsOf(x) {
			out[r] = true
		}
	}
	switch v := v.(type) {
	case *ssa.Global:
		if s.a.keeps(v) {
			out[v] = true
		}
	case *ssa.Parameter, *ssa.Alloc:
		out[v] = true
	case *ssa.FieldAddr:
		add(v.X)
	case *ssa.IndexAddr:
		add(v.X)
	case *ssa.Field:
		add(v.X)
	case *ssa.Index:
		add(v.X)
	case *ssa.UnOp:
		if mayPoint(v.Type()) {
			add(v.X)
			if v.Op == token.MUL {
				// A local variable the function's parameter was
				// spilled into (a closure captures it), or another
				// value stored in it: what it points to.
				if a := addrAlloc(v.X); a != nil {
					for _, x := range s.stored[a] {
						add(x)
					}
				}
			}
		}
	case *ssa.Lookup:
		if mayPoint(v.Type()) {
			add(v.X)
		}
	case *ssa.Slice:
		add(v.X)
	case *ssa.SliceToArrayPointer:
		add(v.X)
	case *ssa.ChangeType:
		add(v.X)
	case *ssa.Convert:
		add(v.X)
	case *ssa.ChangeInterface:
		add(v.X)
	case *ssa.MakeInterface:
		add(v.X)
	case *ssa.TypeAssert:
		add(v.X)
	case *ssa.Extract:
		add(v.Tuple)
	case *ssa.Phi:
		for _, e := range v.Edges {
			add(e)
		}
	case *ssa.MakeClosure:
		for _, b := range v.Bindings {
			add(b)
		}
	case *ssa.Call:
		if c := v.Call.StaticCallee(); c != nil && c.Object() != nil && c.Object().Pkg() != nil && c.Object().Pkg().Path() == "sync" && c.Name() == "Get" {
			break // a pool's object: its package's scratch
		}
		if v.Call.IsInvoke() {
			add(v.Call.Value)
		}
		for _, a := range v.Call.Args {
			if mayPoint(a.Type()) {
				add(a)
			}
		}
		if c := keepCallee(&v.Call); c != nil {
			for gv := range s.a.retG[c] {
				out[gv] = true
			}
		}
	}
	s.roots[v] = out
	return out
}

// carry returns the parameters whose value v may be or hold.
func (s *keepState) carry(v ssa.Value, seen map[ssa.Value]bool) uint64 {
	if seen[v] {
		return 0
	}
	seen[v] = true
	var c uint64
	fromMemory := func(x ssa.Value) {
		for r := range s.rootsOf(x) {
			switch r := r.(type) {
			case *ssa.Alloc:
				c |= s.allocs[r]
			case *ssa.Parameter:
				c |= s.paramBit(r)
			}
		}
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		c |= s.paramBit(v)
	case *ssa.Alloc:
		c |= s.allocs[v]
	case *ssa.ChangeType:
		c |= s.carry(v.X, seen)
	case *ssa.Convert:
		c |= s.carry(v.X, seen)
	case *ssa.ChangeInterface:
		c |= s.carry(v.X, seen)
	case *ssa.MakeInterface:
		c |= s.carry(v.X, seen)
	case *ssa.TypeAssert:
		c |= s.carry(v.X, seen)
	case *ssa.Slice:
		c |= s.carry(v.X, seen)
	case *ssa.SliceToArrayPointer:
		c |= s.carry(v.X, seen)
	case *ssa.Field:
		c |= s.carry(v.X, seen)
	case *ssa.Index:
		c |= s.carry(v.X, seen)
	case *ssa.FieldAddr:
		c |= s.carry(v.X, seen)
	case *ssa.IndexAddr:
		c |= s.carry(v.X, seen)
	case *ssa.Extract:
		c |= s.carry(v.Tuple, seen)
	case *ssa.Phi:
		for _, e := range v.Edges {
			c |= s.carry(e, seen)
		}
	case *ssa.MakeClosure:
		for _, b := range v.Bindings {
			c |= s.carry(b, seen)
		}
	case *ssa.UnOp:
		c |= s.carry(v.X, seen)
		fromMemory(v.X)
	case *ssa.Lookup:
		c |= s.carry(v.X, seen)
		fromMemory(v.X)
	case *ssa.Call:
		if callee := keepCallee(&v.Call); callee != nil && len(callee.Blocks) > 0 {
			// What the callee's result holds (keepR).
			for i, a := range v.Call.Args {
				if i < 64 && s.a.keepR[callee]&(1<<i) != 0 {
					c |= s.carry(a, seen)
				}
			}
			break
		}
		if v.Call.IsInvoke() {
			c |= s.carry(v.Call.Value, seen)
		}
		for _, a := range v.Call.Args {
			c |= s.carry(a, seen)
		}
	}
	return c
}

func (s *keepState) paramBit(p *ssa.Parameter) uint64 {
	for i, q := range s.fn.Params {
		if q == p && i < 64 && s.a.holds(p.Type()) {
			return 1 << i
		}
	}
	return 0
}

// holds caches holder(t, false) for parameters: the standard library's
// constructors fill unexported fields (slog.New(h)).
func (a *keepAnalysis) holds(t types.Type) bool {
	if h := a.holders.At(t); h != nil {
		return h.(bool)
	}
	h := holder(t, false, map[types.Type]bool{})
	a.holders.Set(t, h)
	return h
}

// keeps reports whether a variable can keep a value of the program.
func (a *keepAnalysis) keeps(gv *ssa.Global) bool {
	if h, ok := a.varHolds[gv]; ok {
		return h
	}
	path := gv.Pkg.Pkg.Path()
	// reflect's variables are caches of types, and unique's of
	// comparable values, whose methods neither calls through them.
	h := path != "runtime" && path != "reflect" && path != "unique" && !strings.Contains(path, "internal") && holder(gv.Type().(*types.Pointer).Elem(), false, map[types.Type]bool{})
	a.varHolds[gv] = h
	return h
}

// keepIn records that the params of c may be kept in the memory of roots;
// it reports whether a local allocation changed.
func (s *keepState) keepIn(c uint64, roots map[ssa.Value]bool) bool {
	changed := false
	for r := range roots {
		switch r := r.(type) {
		case *ssa.Alloc:
			if s.allocs[r]|c != s.allocs[r] {
				s.allocs[r] |= c
				changed = true
			}
		case *ssa.Global:
			for i := range 64 {
				if c&(1<<i) != 0 {
					set(s.a.keepG, s.fn, i, r)
				}
			}
		case *ssa.Parameter:
			j := -1
			for k, q := range s.fn.Params {
				if q == r {
					j = k
				}
			}
			if j < 0 {
				continue
			}
			for i := range 64 {
				if c&(1<<i) != 0 && i != j {
					set(s.a.keepP, s.fn, i, j)
				}
			}
		}
	}
	return changed
}

func set[K comparable](m map[*ssa.Function]map[int]map[K]bool, fn *ssa.Function, i int, k K) {
	if m[fn] == nil {
		m[fn] = map[int]map[K]bool{}
	}
	if m[fn][i] == nil {
		m[fn][i] = map[K]bool{}
	}
	m[fn][i][k] = true
}

// analyse runs the analysis of fn once, with the facts of its callees as
// they are.
func (a *keepAnalysis) analyse(fn *ssa.Function) {
	s := &keepState{a: a, fn: fn, allocs: map[ssa.Value]uint64{}, stored: map[*ssa.Alloc][]ssa.Value{}}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if a := addrAlloc(st.Addr); a != nil {
					s.stored[a] = append(s.stored[a], st.Val)
				}
			}
		}
	}
	for {
		s.roots = map[ssa.Value]map[ssa.Value]bool{}
		changed := false
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					if c := s.carry(instr.Val, map[ssa.Value]bool{}); c != 0 {
						changed = s.keepIn(c, s.rootsOf(instr.Addr)) || changed
					}
				case *ssa.MapUpdate:
					if c := s.carry(instr.Key, map[ssa.Value]bool{}) | s.carry(instr.Value, map[ssa.Value]bool{}); c != 0 {
						changed = s.keepIn(c, s.rootsOf(instr.Map)) || changed
					}
				case *ssa.Send:
					if c := s.carry(instr.X, map[ssa.Value]bool{}); c != 0 {
						changed = s.keepIn(c, s.rootsOf(instr.Chan)) || changed
					}
				case *ssa.Return:
					for _, r := range instr.Results {
						if a.holds(r.Type()) {
							// A new object that holds a parameter
							// (bufio.NewReader(rd)), or a closure
							// that does (sync.OnceFunc(f)).
							k := s.carry(r, map[ssa.Value]bool{})
							for root := range s.rootsOf(r) {
								if al, ok := root.(*ssa.Alloc); ok {
									k |= s.allocs[al]
								}
							}
							a.keepR[fn] |= k
						}
						for root := range s.rootsOf(r) {
							if gv, ok := root.(*ssa.Global); ok {
								if a.retG[fn] == nil {
									a.retG[fn] = map[*ssa.Global]bool{}
								}
								a.retG[fn][gv] = true
							}
						}
					}
				case ssa.CallInstruction:
					changed = s.call(instr.Common()) || changed
				}
			}
		}
		if !changed {
			return
		}
	}
}

// call applies a call's facts: what its callee keeps where.
func (s *keepState) call(common *ssa.CallCommon) bool {
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	c := keepCallee(common)
	changed := false
	if c != nil && transientKeeps[funcKey(c)] {
		return false
	}
	if c == nil || len(c.Blocks) == 0 {
		// A call without a Go body (atomic.StorePointer) may keep any
		// argument in the memory of any other; a call of a closure made
		// here, in its variables'. A method called through an interface
		// is taken to keep nothing: the standard library's own are
		// summarised as themselves, and a program's type is its code's
		// (http.Client.Do is not taken to keep the request in
		// DefaultTransport, which RoundTrip only uses while it runs).
		var all uint64
		for _, a := range args {
			all |= s.carry(a, map[ssa.Value]bool{})
		}
		if all == 0 {
			return false
		}
		into := args
		if c == nil {
			into = nil
			if mc, ok := common.Value.(*ssa.MakeClosure); ok {
				into = mc.Bindings
			}
		}
		for _, a := range into {
			if mayPoint(a.Type()) {
				changed = s.keepIn(all, s.rootsOf(a)) || changed
			}
		}
		return changed
	}
	for k, a := range args {
		ck := s.carry(a, map[ssa.Value]bool{})
		if ck == 0 {
			continue
		}
		globals := map[ssa.Value]bool{}
		for gv := range s.a.keepG[c][k] {
			globals[gv] = true
		}
		changed = s.keepIn(ck, globals) || changed
		for j := range s.a.keepP[c][k] {
			if j < len(args) {
				changed = s.keepIn(ck, s.rootsOf(args[j])) || changed
			}
		}
	}
	return changed
}

// transientKeeps are the functions that keep what they are given only
// while they run, which the flow-insensitive analysis cannot see: a
// request's body, context and callbacks wait in net/http's Transport (its
// connection queues) until the response comes. Their facts are dropped,
// and their callers do not inherit them: a tool posting a file (honest
// upload) would otherwise charge its body's Read to every tool making a
// request.
var transientKeeps = map[string]bool{
	"(*net/http.Client).Do":           true,
	"(*net/http.Client).do":           true,
	"(*net/http.Client).send":         true,
	"net/http.send":                   true,
	"(*net/http.Transport).RoundTrip": true,
	"(*net/http.Transport).roundTrip": true,
}

// runtimeKeepR are the functions of the standard library whose result
// holds some of their arguments (a method's receiver is 0) in memory of
// the runtime's that its type does not show, which the summary does not
// see (%keepret): a time.Timer made by AfterFunc holds its func, which
// Reset or Stop and Reset run again, in whatever tool calls them (probe
// timerreset); the Value reflect.MakeFunc makes holds its func behind an
// unsafe.Pointer, and what Value.Interface returns holds what the Value
// does (probe makefunc).
var runtimeKeepR = map[string][]int{
	"time.AfterFunc":             {1},
	"reflect.MakeFunc":           {1},
	"(reflect.Value).Interface":  {0},
	"(*reflect.Value).Interface": {0},
}

// analyseKeeps computes the facts of every function of the standard
// library to a fixed point.
func analyseKeeps(fns []*ssa.Function) *keepAnalysis {
	a := &keepAnalysis{
		keepG: map[*ssa.Function]map[int]map[*ssa.Global]bool{},
		keepP: map[*ssa.Function]map[int]map[int]bool{},
		retG:  map[*ssa.Function]map[*ssa.Global]bool{},
		keepR: map[*ssa.Function]uint64{},

		varHolds: map[*ssa.Global]bool{},
	}
	callers := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if c := keepCallee(call.Common()); c != nil {
						callers[c] = append(callers[c], fn)
					}
				}
			}
		}
	}
	size := func(fn *ssa.Function) int {
		n := len(a.retG[fn]) + bits.OnesCount64(a.keepR[fn])
		for _, s := range a.keepG[fn] {
			n += len(s)
		}
		for _, s := range a.keepP[fn] {
			n += len(s)
		}
		return n
	}
	work := slices.Clone(fns)
	queued := map[*ssa.Function]bool{}
	for _, fn := range fns {
		queued[fn] = true
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		queued[fn] = false
		if transientKeeps[funcKey(fn)] {
			continue
		}
		before := size(fn)
		a.analyse(fn)
		if size(fn) != before {
			for _, c := range callers[fn] {
				if !queued[c] {
					queued[c] = true
					work = append(work, c)
				}
			}
		}
	}
	return a
}

// holder reports whether a value of type t can hold a value of the
// program: a function or an interface other than error, in it or in what
// it points to. With exported, a struct of the standard library counts
// by its exported fields only (all the program can fill); a type of the
// runtime or an internal package holds none of the program's.
func holder(t types.Type, exported bool, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	stdNamed := false
	if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != nil {
		path := named.Obj().Pkg().Path()
		if _, iface := t.Underlying().(*types.Interface); !iface && runtimeOwn(path) {
			return false
		}
		if path == "sync" && named.Obj().Name() == "Pool" {
			return false // the package's scratch, reset before it is put back
		}
		stdNamed = !strings.Contains(path, ".")
	}
	switch u := t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return true
	case *types.Pointer:
		return holder(u.Elem(), exported, seen)
	case *types.Slice:
		return holder(u.Elem(), exported, seen)
	case *types.Array:
		return holder(u.Elem(), exported, seen)
	case *types.Chan:
		return holder(u.Elem(), exported, seen)
	case *types.Map:
		return holder(u.Key(), exported, seen) || holder(u.Elem(), exported, seen)
	case *types.Struct:
		for f := range u.Fields() {
			if (f.Exported() || !exported || !stdNamed) && holder(f.Type(), exported, seen) {
				return true
			}
		}
	}
	return false
}

// keepLines returns the summary's lines of the standard library's
// package state (see parseSummary): for each function the program can
// name (an exported name), the variables it may keep each parameter in
// ("%keep"), the parameters in whose memory (a receiver's, say) it may
// keep each ("%keepin"), the variables its results may point into
// ("%ret"), and the variables it reads, itself or through the functions
// it calls or takes the value of ("%read"), of those some function keeps
// a parameter in and the exported ones that can hold a value of the
// program (which the program may store into itself).
func keepLines(prog *ssa.Program, fns []*ssa.Function) []string {
	a := analyseKeeps(fns)
	// The variables the program can put a value of its own into: by a
	// function it can name, by a pointer such a function returns, or
	// itself.
	kept := map[*ssa.Global]bool{}
	for _, fn := range fns {
		if !token.IsExported(fn.Name()) || fn.Parent() != nil {
			continue
		}
		for _, s := range a.keepG[fn] {
			for gv := range s {
				kept[gv] = true
			}
		}
		for gv := range a.retG[fn] {
			kept[gv] = true
		}
	}
	for _, p := range prog.AllPackages() {
		if strings.Contains(p.Pkg.Path(), "internal") || strings.HasPrefix(p.Pkg.Path(), "vendor/") {
			continue
		}
		for _, m := range p.Members {
			if gv, ok := m.(*ssa.Global); ok && token.IsExported(gv.Name()) && holder(gv.Type().(*types.Pointer).Elem(), true, map[types.Type]bool{}) {
				kept[gv] = true
			}
		}
	}
	// reads: direct, then through static calls and function values.
	reads := map[*ssa.Function]map[*ssa.Global]bool{}
	users := map[*ssa.Function][]*ssa.Function{}
	var ops []*ssa.Value
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if c := keepCallee(call.Common()); c != nil && c != call.Common().StaticCallee() {
						users[c] = append(users[c], fn)
					}
				}
				for _, op := range instr.Operands(ops[:0]) {
					switch v := (*op).(type) {
					case *ssa.Global:
						if kept[v] {
							if reads[fn] == nil {
								reads[fn] = map[*ssa.Global]bool{}
							}
							reads[fn][v] = true
						}
					case *ssa.Function:
						users[v] = append(users[v], fn)
					}
				}
			}
		}
	}
	work := slices.Collect(maps.Keys(reads))
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range users[fn] {
			grew := false
			for gv := range reads[fn] {
				if !reads[u][gv] {
					if reads[u] == nil {
						reads[u] = map[*ssa.Global]bool{}
					}
					reads[u][gv] = true
					grew = true
				}
			}
			if grew {
				work = append(work, u)
			}
		}
	}
	var lines []string
	for _, fn := range fns {
		if !token.IsExported(fn.Name()) || fn.Parent() != nil {
			continue
		}
		key := funcKey(fn)
		for i, s := range a.keepG[fn] {
			for gv := range s {
				lines = append(lines, fmt.Sprintf("%%keep\t%s\t%d\t%s", key, i, gv))
			}
		}
		for i, s := range a.keepP[fn] {
			for j := range s {
				lines = append(lines, fmt.Sprintf("%%keepin\t%s\t%d\t%d", key, i, j))
			}
		}
		for gv := range a.retG[fn] {
			lines = append(lines, fmt.Sprintf("%%ret\t%s\t%s", key, gv))
		}
		for i := range 64 {
			if a.keepR[fn]&(1<<i) != 0 {
				lines = append(lines, fmt.Sprintf("%%keepret\t%s\t%d", key, i))
			}
		}
		if len(reads[fn]) > 0 {
			names := slices.Sorted(func(yield func(string) bool) {
				for gv := range reads[fn] {
					if !yield(gv.String()) {
						return
					}
				}
			})
			lines = append(lines, fmt.Sprintf("%%read\t%s\t%s", key, strings.Join(names, " ")))
		}
	}
	// The type of each variable the lines name ("%vartype"), for
	// rootsByType: an unexported one is not in the types the audit loads
	// a program with, which hold a package's exported declarations and
	// what they name (the go command's export data holds, besides, those
	// its inlined bodies name: log.std, through log.Default).
	named := map[*ssa.Global]bool{}
	for _, fn := range fns {
		if !token.IsExported(fn.Name()) || fn.Parent() != nil {
			continue
		}
		for _, s := range a.keepG[fn] {
			maps.Copy(named, s)
		}
		maps.Copy(named, a.retG[fn])
		maps.Copy(named, reads[fn])
	}
	for gv := range named {
		lines = append(lines, fmt.Sprintf("%%vartype\t%s\t%s", gv, typeKey(gv.Type().(*types.Pointer).Elem())))
	}
	return lines
}

// keeps are the parsed lines of keepLines.
type keeps struct {
	keepG map[string]map[int][]string
	keepP map[string]map[int][]int
	ret   map[string][]string
	keepR map[string][]int
	reads map[string][]string
	// vars holds every variable the lines name; varType the type of each,
	// as typeKey spells it.
	vars    map[string]bool
	varType map[string]string
}

// parseKeep parses one line of keepLines, without its "%".
func (k *keeps) parse(line string) error {
	f := strings.Split(line, "\t")
	if k.vars == nil {
		k.vars = map[string]bool{}
	}
	bad := fmt.Errorf("standard-library summary: bad line %%%s", line)
	switch {
	case f[0] == "keep" && len(f) == 4, f[0] == "keepin" && len(f) == 4:
		i, err := strconv.Atoi(f[2])
		if err != nil {
			return bad
		}
		if f[0] == "keep" {
			if k.keepG[f[1]] == nil {
				k.keepG[f[1]] = map[int][]string{}
			}
			k.keepG[f[1]][i] = append(k.keepG[f[1]][i], f[3])
			k.vars[f[3]] = true
			return nil
		}
		j, err := strconv.Atoi(f[3])
		if err != nil {
			return bad
		}
		if k.keepP[f[1]] == nil {
			k.keepP[f[1]] = map[int][]int{}
		}
		k.keepP[f[1]][i] = append(k.keepP[f[1]][i], j)
	case f[0] == "keepret" && len(f) == 3:
		i, err := strconv.Atoi(f[2])
		if err != nil {
			return bad
		}
		k.keepR[f[1]] = append(k.keepR[f[1]], i)
	case f[0] == "ret" && len(f) == 3:
		k.ret[f[1]] = append(k.ret[f[1]], f[2])
		k.vars[f[2]] = true
	case f[0] == "read" && len(f) == 3:
		k.reads[f[1]] = strings.Fields(f[2])
		for _, v := range k.reads[f[1]] {
			k.vars[v] = true
		}
	case f[0] == "vartype" && len(f) == 3:
		if k.varType == nil {
			k.varType = map[string]string{}
		}
		k.varType[f[1]] = f[2]
	default:
		return bad
	}
	return nil
}

// keptNode returns the node of the program's values kept in the
// standard library's variable name (keepLines): whoever reads the
// variable, or calls a function of the standard library that does,
// reaches it.
func (g *graph) keptNode(name string) *node {
	key := "values kept in var " + name
	if n := g.nodes[key]; n != nil {
		return n
	}
	return g.add(&node{key: key, done: true})
}

// stdReads adds the edges from n to the values kept in the variables a
// function of the standard library, fn, reads.
func (g *graph) stdReads(n *node, fn *ssa.Function, pos token.Pos) {
	if g.summary == nil || g.stdMode {
		return
	}
	key, _ := g.factKey(fn)
	for _, name := range g.summary.keeps.reads[key] {
		n.out = append(n.out, edge{g.keptNode(name), pos})
	}
}

// keptEdges adds the edges of every value the program keeps in the
// standard library's package state, in any of its functions: handed to a
// function of the standard library that keeps it (%keep, or %keepin with
// another argument that points into a variable), by a static call, a
// method value or a call VTA resolves, or stored by the program into a
// variable's memory. A value kept in the memory of an object the program
// keeps in a variable of its own (a ServeMux it made) is charged to that
// variable's users (progVar).
func (g *graph) keptEdges() {
	if g.summary == nil {
		return
	}
	fns := g.funcsByName()
	// The receivers the program binds each method value of the
	// standard library to.
	bound := map[*ssa.Function][]ssa.Value{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
					if c := mc.Fn.(*ssa.Function); strings.HasPrefix(c.Synthetic, "bound method wrapper") {
						bound[c] = append(bound[c], mc.Bindings[0])
					}
				}
			}
		}
	}
	// What the program stores into its variables (and their fields and
	// elements), whose memory is the stored values' (stdRoots); the
	// standard library's types the program makes into interfaces, whose
	// methods a call through an interface may be.
	g.progStores = map[*ssa.Global][]ssa.Value{}
	var stdIfaced []types.Type
	var seenT typeutil.Map
	for _, fn := range fns {
		if g.isStd(fnPkgPath(fn)) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					if v := addrGlobal(instr.Addr); v != nil && !g.isStd(v.Pkg.Pkg.Path()) {
						g.progStores[v] = append(g.progStores[v], instr.Val)
					}
				case *ssa.MakeInterface:
					if t := instr.X.Type(); g.stdType(t) && seenT.Set(t, true) == nil {
						stdIfaced = append(stdIfaced, t)
					}
				}
			}
		}
	}
	for _, fn := range fns {
		if g.isStd(fnPkgPath(fn)) {
			continue
		}
		var sites map[ssa.CallInstruction][]*ssa.Function
		if g.dyn != nil {
			if cn := g.dyn.Nodes[fn]; cn != nil {
				sites = map[ssa.CallInstruction][]*ssa.Function{}
				for _, e := range cn.Out {
					sites[e.Site] = append(sites[e.Site], e.Callee.Func)
				}
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var into []keptAt
				var val []ssa.Value
				switch instr := instr.(type) {
				case *ssa.Store:
					into, val = g.storeRoots(instr.Addr, false), []ssa.Value{instr.Val}
				case *ssa.MapUpdate:
					into, val = g.stdRoots(instr.Map, false, map[ssa.Value]bool{}, nil), []ssa.Value{instr.Key, instr.Value}
				case *ssa.Send:
					into, val = g.stdRoots(instr.Chan, false, map[ssa.Value]bool{}, nil), []ssa.Value{instr.X}
				case ssa.CallInstruction:
					common := instr.Common()
					if callee := common.StaticCallee(); callee != nil {
						g.keptCall(callee, common.Args, callValue(instr), bound, instr.Pos())
						continue
					}
					args := common.Args
					if common.IsInvoke() {
						args = append([]ssa.Value{common.Value}, args...)
					}
					for _, c := range sites[instr] {
						g.keptCall(c, args, callValue(instr), bound, instr.Pos())
					}
					if common.IsInvoke() {
						// VTA resolves a call only to the functions it
						// is given: a method of the standard library's
						// type the program made into an interface
						// (var reg registrar = http.DefaultServeMux).
						for _, t := range stdIfaced {
							sel := g.prog.MethodSets.MethodSet(t).Lookup(common.Method.Pkg(), common.Method.Name())
							if sel == nil || !types.Identical(sel.Obj().Type().(*types.Signature).Params(), common.Method.Type().(*types.Signature).Params()) {
								continue
							}
							if m := g.prog.MethodValue(sel); m != nil && !slices.Contains(sites[instr], m) {
								g.keptCall(m, args, callValue(instr), bound, instr.Pos())
							}
						}
					}
					continue
				}
				for _, at := range into {
					for _, v := range val {
						g.keptValue(g.keptAtNode(at), v, instr.Pos(), map[ssa.Value]bool{})
					}
				}
			}
		}
	}
}

// keptAt is where a value is kept: a variable of the standard library
// (name) or of the program (prog).
type keptAt struct {
	name string
	prog *ssa.Global
}

func (g *graph) keptAtNode(at keptAt) *node {
	if at.prog != nil {
		return g.progVar(at.prog)
	}
	return g.keptNode(at.name)
}

// factKey returns the key of the summary's facts for fn, a function of
// the standard library, and how many parameters its own come before: a
// method's, for its method value's wrapper ($bound, whose receiver is
// bound) and method expression's ($thunk) and the wrapper of a value
// method on a pointer.
func (g *graph) factKey(fn *ssa.Function) (string, int) {
	if fn.Synthetic != "" {
		if f, ok := fn.Object().(*types.Func); ok && f.Signature().Recv() != nil {
			if _, iface := f.Signature().Recv().Type().Underlying().(*types.Interface); !iface {
				if m := g.prog.FuncValue(f); m != nil && m != fn {
					if strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
						return funcKey(m), 1
					}
					return funcKey(m), 0
				}
			}
		}
	}
	return funcKey(fn), 0
}

// keptCall adds the edges of a call of callee, a function of the
// standard library, with args (a method's receiver first), at pos.
func (g *graph) keptCall(callee *ssa.Function, args []ssa.Value, res ssa.Value, bound map[*ssa.Function][]ssa.Value, pos token.Pos) {
	if !g.isStd(fnPkgPath(callee)) {
		return
	}
	k := &g.summary.keeps
	key, shift := g.factKey(callee)
	arg := func(i int) []ssa.Value {
		if i < shift {
			return bound[callee]
		}
		if i-shift < len(args) {
			return []ssa.Value{args[i-shift]}
		}
		return nil
	}
	for i, names := range k.keepG[key] {
		for _, a := range arg(i) {
			for _, name := range names {
				g.keptValue(g.keptNode(name), a, pos, map[ssa.Value]bool{})
			}
		}
	}
	if keepR := append(slices.Clone(k.keepR[key]), runtimeKeepR[key]...); res != nil && len(keepR) > 0 {
		// The result holds the arguments: where the program keeps it,
		// it keeps them (probes bufiowrap, oncefunc, timerreset).
		ats := g.objectKept(res)
		for _, i := range keepR {
			for _, at := range ats {
				for _, a := range arg(i) {
					g.keptValue(g.keptAtNode(at), a, pos, map[ssa.Value]bool{})
				}
			}
		}
	}
	for i, js := range k.keepP[key] {
		for _, j := range js {
			for _, obj := range arg(j) {
				var unknown []types.Type
				ats := g.stdRoots(obj, true, map[ssa.Value]bool{}, &unknown)
				ats = append(ats, g.objectKept(obj)...)
				if len(unknown) > 0 {
					// The object may be any of its type: a
					// variable's of the standard library or of the
					// program that holds one (fail closed; probe
					// muxfield); or any of the type of a value its
					// trace stopped at, an interface's dynamic value
					// (probe logifacevar: a *log.Logger, which an
					// interface holds).
					ts := []types.Type{obj.Type()}
					for _, t := range unknown {
						if !slices.ContainsFunc(ts, func(u types.Type) bool { return types.Identical(u, t) }) {
							ts = append(ts, t)
						}
					}
					for _, t := range ts {
						ats = append(ats, g.rootsByType(t)...)
					}
				}
				for _, at := range ats {
					for _, a := range arg(i) {
						g.keptValue(g.keptAtNode(at), a, pos, map[ssa.Value]bool{})
					}
				}
			}
		}
	}
}

// stdRoots returns the variables of the standard library whose memory v,
// a value of the program, may point into; with prog, those of the
// program too.
func (g *graph) stdRoots(v ssa.Value, prog bool, seen map[ssa.Value]bool, unknown *[]types.Type) []keptAt {
	if seen[v] {
		return nil
	}
	if len(seen) > rootTraceLimit {
		setUnknown(unknown, v.Type()) // fail closed (rootsByType)
		return nil
	}
	seen[v] = true
	var out []keptAt
	switch v := v.(type) {
	case *ssa.Global:
		if g.isStd(v.Pkg.Pkg.Path()) {
			out = append(out, keptAt{name: v.String()})
			break
		}
		if prog {
			out = append(out, keptAt{prog: v})
		}
		// What it holds points where the values stored in it do.
		for _, x := range g.progStores[v] {
			out = append(out, g.stdRoots(x, prog, seen, unknown)...)
		}
	case *ssa.FieldAddr:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.IndexAddr:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.Field:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.Index:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.UnOp:
		if mayPoint(v.Type()) {
			out = g.stdRoots(v.X, prog, seen, unknown)
		}
	case *ssa.Lookup:
		if mayPoint(v.Type()) {
			out = g.stdRoots(v.X, prog, seen, unknown)
		}
	case *ssa.Slice:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.ChangeType:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.Convert:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.ChangeInterface:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.MakeInterface:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.TypeAssert:
		out = g.stdRoots(v.X, prog, seen, unknown)
	case *ssa.Phi:
		for _, e := range v.Edges {
			out = append(out, g.stdRoots(e, prog, seen, unknown)...)
		}
	case *ssa.Parameter:
		if args, ok := g.paramArgs(v); ok {
			for _, a := range args {
				out = append(out, g.stdRoots(a, prog, seen, unknown)...)
			}
		} else {
			setUnknown(unknown, v.Type())
		}
	case *ssa.FreeVar:
		if vals, ok := bindings(v); ok {
			for _, x := range vals {
				out = append(out, g.stdRoots(x, prog, seen, unknown)...)
			}
		} else {
			setUnknown(unknown, v.Type())
		}
	case *ssa.Alloc:
		// A local object: where the values stored in it point.
		if g.allocVals == nil {
			g.allocVals = map[*ssa.Alloc][]ssa.Value{}
		}
		vals, ok := g.allocVals[v]
		if !ok {
			vals = allocStores(v)
			g.allocVals[v] = vals
		}
		for _, x := range vals {
			out = append(out, g.stdRoots(x, prog, seen, unknown)...)
		}
	case *ssa.Const, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice, *ssa.MakeClosure, *ssa.Function:
	default:
		if mayPoint(v.Type()) {
			setUnknown(unknown, v.Type())
		}
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			out = g.callRoots(c, v.Index, prog, seen, unknown)
		} else if mayPoint(v.Type()) {
			setUnknown(unknown, v.Type()) // a map's lookup, a channel's receive, a type assertion's
		}
	case *ssa.Call:
		out = g.callRoots(v, 0, prog, seen, unknown)
	}
	return out
}

// storeRoots returns the variables whose memory a store to addr writes:
// a variable of the standard library it is the address of, or of a field
// or element of; none for the memory of a local object or, without prog,
// of a variable of the program (the values stored there before are not
// where this one goes: a local error stored into the arguments of
// fmt.Errorf was kept wherever the error it wraps pointed into); else
// where the pointer it is taken from points (stdRoots).
func (g *graph) storeRoots(addr ssa.Value, prog bool) []keptAt {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return nil
		case *ssa.Global:
			if g.isStd(a.Pkg.Pkg.Path()) {
				return []keptAt{{name: a.String()}}
			}
			if prog {
				return []keptAt{{prog: a}}
			}
			return nil
		case *ssa.FieldAddr:
			addr = a.X
			continue
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Pointer); ok {
				addr = a.X // an array's element: the array's memory
				continue
			}
		}
		return g.stdRoots(addr, prog, map[ssa.Value]bool{}, nil)
	}
}

// callRoots returns stdRoots of the result i of call.
func (g *graph) callRoots(call *ssa.Call, i int, prog bool, seen map[ssa.Value]bool, unknown *[]types.Type) []keptAt {
	var out []keptAt
	callee := call.Call.StaticCallee()
	result := call.Type()
	if tuple, ok := result.(*types.Tuple); ok {
		result = tuple.At(i).Type()
	}
	if callee == nil {
		setUnknown(unknown, result)
		return nil
	}
	if g.isStd(fnPkgPath(callee)) {
		key, _ := g.factKey(callee)
		for _, name := range g.summary.keeps.ret[key] {
			out = append(out, keptAt{name: name})
		}
		for _, a := range call.Call.Args {
			if mayPoint(a.Type()) {
				out = append(out, g.stdRoots(a, prog, seen, unknown)...)
			}
		}
		return out
	}
	if rs, ok := g.returned(call, i); ok {
		for _, r := range rs {
			out = append(out, g.stdRoots(r, prog, seen, unknown)...)
		}
	} else {
		setUnknown(unknown, result)
	}
	return out
}

// keptValue adds to n the edges of v, kept in the standard library's
// state at pos: the function or the methods of the value it is made
// from, traced through conversions, φ-nodes and the arguments of the
// program's calls; a value of the standard library is its maker's; one
// the audit cannot trace is every function of the program of its type,
// or every method of the program of its interface's (fail closed).
func (g *graph) keptValue(n *node, v ssa.Value, pos token.Pos, seen map[ssa.Value]bool) {
	if seen[v] {
		return
	}
	seen[v] = true
	if len(seen) > dynTraceLimit {
		g.keptType(n, v.Type(), pos, map[types.Type]bool{})
		return
	}
	switch v := v.(type) {
	case *ssa.Const:
		return
	case *ssa.Function:
		n.out = append(n.out, edge{g.nodeOf(v), pos})
		return
	case *ssa.MakeClosure:
		n.out = append(n.out, edge{g.nodeOf(v.Fn.(*ssa.Function)), pos})
		// What it captured is called where the closure runs, by
		// whoever runs it there: a middleware's closure over the
		// handler it wraps (probe middleware), its free variables'
		// calls traced to their makers (madeHere), which are not
		// that code.
		for _, b := range v.Bindings {
			if !mayPoint(b.Type()) {
				continue
			}
			// A captured variable: what is stored there.
			if a, ok := b.(*ssa.Alloc); ok {
				if vals, ok := cellValues(a); ok {
					for _, x := range vals {
						g.keptValue(n, x, pos, seen)
					}
					continue
				}
			}
			g.keptValue(n, b, pos, seen)
		}
		return
	case *ssa.MakeInterface:
		g.methodEdges(n, v.X.Type(), ifaceOf(v.Type()), pos, false)
		g.keptValue(n, v.X, pos, seen)
		return
	case *ssa.ChangeType:
		g.keptValue(n, v.X, pos, seen)
		return
	case *ssa.Convert:
		g.keptValue(n, v.X, pos, seen)
		return
	case *ssa.ChangeInterface:
		g.keptValue(n, v.X, pos, seen)
		return
	case *ssa.Phi:
		for _, e := range v.Edges {
			g.keptValue(n, e, pos, seen)
		}
		return
	case *ssa.Parameter:
		if args, ok := g.arguments(v); ok {
			for _, a := range args {
				g.keptValue(n, a, pos, seen)
			}
			return
		}
	case *ssa.Alloc:
		if vals, ok := g.localObject(v); ok {
			for _, x := range vals {
				g.keptValue(n, x, pos, seen)
			}
			return
		}
	case *ssa.UnOp:
		if gv, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL && g.isStd(gv.Pkg.Pkg.Path()) {
			n.out = append(n.out, edge{g.globalNode(gv), pos})
			return
		}
	case *ssa.Call:
		if c := v.Call.StaticCallee(); c != nil && g.isStd(fnPkgPath(c)) {
			// Made by the standard library, which may wrap its
			// arguments (http.StripPrefix(prefix, h)).
			n.out = append(n.out, edge{g.nodeOf(c), pos})
			for _, a := range v.Call.Args {
				if mayPoint(a.Type()) {
					g.keptValue(n, a, pos, seen)
				}
			}
			return
		}
		if rs, ok := g.returned(v, 0); ok {
			for _, r := range rs {
				g.keptValue(n, r, pos, seen)
			}
			return
		}
	}
	if !mayPoint(v.Type()) {
		return
	}
	g.keptType(n, v.Type(), pos, map[types.Type]bool{})
}

// keptType adds to n the edges of a value of t the audit cannot trace:
// every function of the program of a func type, every method of the
// program of an interface's, and so for what a pointer, a struct, a
// slice, an array, a map or a channel holds; of a struct of the standard
// library, what its exported fields hold (the program may have filled
// them: probe clientswap), its others being the standard library's.
func (g *graph) keptType(n *node, t types.Type, pos token.Pos, seen map[types.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	exported := false
	if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != nil && g.isStd(named.Obj().Pkg().Path()) {
		switch t.Underlying().(type) {
		case *types.Interface, *types.Signature:
		case *types.Struct:
			// What the program can store in it: its exported fields
			// (an http.Client's Transport).
			exported = true
		default:
			return // what the standard library's types hold is its own
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		for m := range u.Methods() {
			for _, fn := range g.implementers(methodKey(m.Name(), m.Type())) {
				// The standard library's values are traced to the
				// code that made them (its methods are its own).
				if g.isStd(fnPkgPath(fn)) {
					continue
				}
				if recv := fn.Signature.Recv(); recv == nil || types.Implements(recv.Type(), u) {
					n.out = append(n.out, edge{g.nodeOf(fn), pos})
				}
			}
		}
	case *types.Signature:
		for _, fn := range g.userFuncsOf(u) {
			n.out = append(n.out, edge{g.nodeOf(fn), pos})
		}
	case *types.Pointer:
		g.keptType(n, u.Elem(), pos, seen)
	case *types.Slice:
		g.keptType(n, u.Elem(), pos, seen)
	case *types.Array:
		g.keptType(n, u.Elem(), pos, seen)
	case *types.Chan:
		g.keptType(n, u.Elem(), pos, seen)
	case *types.Map:
		g.keptType(n, u.Key(), pos, seen)
		g.keptType(n, u.Elem(), pos, seen)
	case *types.Struct:
		for f := range u.Fields() {
			if f.Exported() || !exported {
				g.keptType(n, f.Type(), pos, seen)
			}
		}
	}
}

// addrGlobal returns the variable addr is the address of, or of a field
// or element of, or of what a pointer it holds points to.
func addrGlobal(addr ssa.Value) *ssa.Global {
	for {
		switch a := addr.(type) {
		case *ssa.Global:
			return a
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return nil
			}
			addr = a.X // through a pointer the variable holds
		default:
			return nil
		}
	}
}

// objectKept returns where the program keeps obj, an object of the
// standard library a value is kept in the memory of, or a value that
// shares its memory: the other results of the call that made it (the
// cancel function context.WithCancel returns with its context), the
// conversions of them, the closures that capture them. Each variable a
// store puts one of them into is a variable whose users can reach what
// the object keeps (probe ctxafter).
func (g *graph) objectKept(obj ssa.Value) []keptAt {
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{obj}
	if e, ok := obj.(*ssa.Extract); ok {
		if refs := e.Tuple.Referrers(); refs != nil {
			for _, r := range *refs {
				if x, ok := r.(*ssa.Extract); ok {
					work = append(work, x)
				}
			}
		}
	}
	var out []keptAt
	for len(work) > 0 && len(seen) <= dynTraceLimit {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val == v {
					if a := addrAlloc(r.Addr); a != nil {
						// Into a local object: kept where it is.
						work = append(work, a)
						continue
					}
					out = append(out, g.storeRoots(r.Addr, true)...)
					// Into a slice's element or a field of an object
					// the program made: kept where that is (probe
					// ctxmap).
					if b := addrBase(r.Addr); b != nil {
						work = append(work, b)
					}
				}
			case *ssa.MapUpdate:
				if r.Key == v || r.Value == v {
					out = append(out, g.stdRoots(r.Map, true, map[ssa.Value]bool{}, nil)...)
					work = append(work, r.Map) // a map made here: kept where it is (probe ctxmap)
				}
			case *ssa.Send:
				if r.X == v {
					out = append(out, g.stdRoots(r.Chan, true, map[ssa.Value]bool{}, nil)...)
					work = append(work, r.Chan)
				}
			case *ssa.Select:
				// Sent in a select statement's case (probe selectsend).
				for _, st := range r.States {
					if st.Dir == types.SendOnly && st.Send == v {
						out = append(out, g.stdRoots(st.Chan, true, map[ssa.Value]bool{}, nil)...)
						work = append(work, st.Chan)
					}
				}
			case *ssa.Extract:
				// A result of a call that returns several, each of
				// which may hold it (next, stop := iter.Pull(seq);
				// ctx, cancel := context.WithCancel(…): probes
				// iterpull, ctxtuple).
				work = append(work, r)
			case *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.Convert, *ssa.TypeAssert, *ssa.Phi, *ssa.MakeClosure:
				work = append(work, r.(ssa.Value))
			case *ssa.UnOp, *ssa.FieldAddr, *ssa.IndexAddr:
				// What a local object it was stored into holds: its
				// loads, and the addresses of its fields and elements.
				if addrAlloc(v) != nil {
					work = append(work, r.(ssa.Value))
				}
			case ssa.CallInstruction:
				// Given to a function of the program: kept where it
				// keeps its parameter; by a dynamic call, in each
				// callee the call graph gives it (probe ctxdynamic).
				common := r.Common()
				args := common.Args
				var callees []*ssa.Function
				if callee := common.StaticCallee(); callee != nil {
					callees = append(callees, callee)
				} else {
					if common.IsInvoke() {
						args = append([]ssa.Value{common.Value}, args...)
					}
					if g.dyn == nil {
						continue
					}
					if cn := g.dyn.Nodes[r.Parent()]; cn != nil {
						for _, e := range cn.Out {
							if e.Site == r {
								callees = append(callees, e.Callee.Func)
							}
						}
					}
				}
				for _, callee := range callees {
					if g.isStd(fnPkgPath(callee)) {
						out = append(out, g.stdKeepsArg(callee, args, v, r, &work)...)
						continue
					}
					for i, a := range args {
						if a == v && i < len(callee.Params) {
							work = append(work, callee.Params[i])
						}
					}
				}
			case *ssa.Return:
				// Returned: kept where the callers keep the result.
				work = append(work, g.callResults(r, v)...)
			}
		}
	}
	return out
}

// stdKeepsArg returns the variables of the standard library a call
// (instr) of callee, one of its functions, with args (a method's
// receiver first) keeps v, one of them, in (%keep: an object the
// program made handed to http.Handle, probe muxnested), and adds to work
// the call's result when it holds v (%keepret).
func (g *graph) stdKeepsArg(callee *ssa.Function, args []ssa.Value, v ssa.Value, instr ssa.CallInstruction, work *[]ssa.Value) []keptAt {
	k := &g.summary.keeps
	key, shift := g.factKey(callee)
	keepR := append(slices.Clone(k.keepR[key]), runtimeKeepR[key]...)
	var out []keptAt
	recv := callee.Signature.Recv() != nil
	for i, a := range args {
		if a != v {
			continue
		}
		if res := callValue(instr); recv && i+shift == 0 && res != nil && slices.Contains(keepR, 0) {
			*work = append(*work, res) // a receiver the result holds (Value.Interface)
			continue
		}
		if (recv && i+shift == 0) || isContext(a.Type()) {
			// A method's receiver, or a context: used while the
			// call runs. The flow-insensitive facts take what a
			// call stores in the fields of objects it shares to be
			// kept where the values stored there point
			// (tls.Dialer.DialContext's context, in
			// net.DefaultResolver).
			continue
		}
		for _, name := range k.keepG[key][i+shift] {
			out = append(out, keptAt{name: name})
		}
		if res := callValue(instr); res != nil && slices.Contains(keepR, i+shift) {
			*work = append(*work, res)
		}
	}
	return out
}

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// storedThrough returns the values stored into the map or the slice's
// elements that the load v gives: the keys and values of its map
// updates, the stores into its elements.
func storedThrough(v *ssa.UnOp) []ssa.Value {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var out []ssa.Value
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			if r.Map == v {
				out = append(out, r.Key, r.Value)
			}
		case *ssa.IndexAddr:
			if ers := r.Referrers(); ers != nil {
				for _, e := range *ers {
					if st, ok := e.(*ssa.Store); ok && st.Addr == r {
						out = append(out, st.Val)
					}
				}
			}
		}
	}
	return out
}

// addrBase returns the object an address is of, through fields and
// elements, when it is one the program made other than a variable or a
// local allocation (a slice, a map's, an object new returned).
func addrBase(addr ssa.Value) ssa.Value {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.Global, *ssa.Alloc:
			return nil
		default:
			return addr
		}
	}
}

// callResults returns the values that are v, a result ret returns, in
// the calls of its function the call graph knows of.
func (g *graph) callResults(ret *ssa.Return, v ssa.Value) []ssa.Value {
	if g.dyn == nil || g.dyn.Nodes[ret.Parent()] == nil {
		return nil
	}
	var out []ssa.Value
	for i, r := range ret.Results {
		if r != v {
			continue
		}
		for _, e := range g.dyn.Nodes[ret.Parent()].In {
			call, ok := e.Site.(*ssa.Call)
			if !ok {
				continue
			}
			if len(ret.Results) == 1 {
				out = append(out, call)
				continue
			}
			if refs := call.Referrers(); refs != nil {
				for _, x := range *refs {
					if x, ok := x.(*ssa.Extract); ok && x.Index == i {
						out = append(out, x)
					}
				}
			}
		}
	}
	return out
}

// callValue returns the value of a call instruction, nil for go and
// defer.
func callValue(instr ssa.CallInstruction) ssa.Value {
	if c, ok := instr.(*ssa.Call); ok {
		return c
	}
	return nil
}

// runtimeOwn reports whether path is the runtime's or a package of types
// the runtime keeps for itself (a type's descriptor, with its hash and
// equality functions): they hold no value of the program. Other internal
// packages do (internal/sync's HashTrieMap is a sync.Map's).
func runtimeOwn(path string) bool {
	return path == "runtime" || path == "internal/abi" || path == "internal/reflectlite" ||
		strings.HasPrefix(path, "internal/runtime/")
}

// rootTraceLimit bounds stdRoots' trace: past it, the object counts as
// unknown.
const rootTraceLimit = 256

// setUnknown adds to unknown, when it is not nil, the type of a value
// stdRoots cannot trace.
func setUnknown(unknown *[]types.Type, t types.Type) {
	if unknown != nil {
		*unknown = append(*unknown, t)
	}
}

// paramArgs returns the values every call of p's function passes as p,
// a method's receiver too, when the audit sees every call (arguments,
// and for a method: its value never taken, its receiver's type never in
// an interface).
func (g *graph) paramArgs(p *ssa.Parameter) ([]ssa.Value, bool) {
	if args, ok := g.arguments(p); ok {
		return args, true
	}
	fn := p.Parent()
	recv := fn.Signature.Recv()
	if recv == nil || g.funcs == nil || fn.Origin() != nil {
		return nil, false
	}
	i := slices.Index(fn.Params, p)
	if i < 0 {
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
	return argsAt(cs.sites[fn], cs.taken[fn], i)
}

// allocStores returns the values stored into a, its fields and elements,
// in its function.
func allocStores(a *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	work := []ssa.Value{a}
	for len(work) > 0 {
		addr := work[len(work)-1]
		work = work[:len(work)-1]
		refs := addr.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr == addr {
					out = append(out, r.Val)
				}
			case *ssa.FieldAddr:
				work = append(work, r)
			case *ssa.IndexAddr:
				work = append(work, r)
			}
		}
	}
	return out
}

// rootsByType returns the variables an object of type t the audit cannot
// trace may be, or be held by: the standard library's the summary names
// (keeps.vars) of type t that the program can point to (exported, or
// returned: log.Default's), and the program's whose type holds t. A
// variable of the standard library that the program's types do not
// declare (unexported: the types the audit loads need not hold it; or of
// a package they do not hold) is matched by the type the summary gives it
// (%vartype), spelled as typeKey spells t, whatever aliases the program
// writes it with (probe logaliasvar); and taken for any type when the
// summary gives none (fail closed).
func (g *graph) rootsByType(t types.Type) []keptAt {
	if g.byTypeVars == nil {
		g.byTypeVars = map[string]*ssa.Global{}
		exposed := map[string]bool{}
		for _, names := range g.summary.keeps.ret {
			for _, name := range names {
				exposed[name] = true
			}
		}
		for name := range g.summary.keeps.vars {
			i := strings.LastIndex(name, ".")
			if i < 0 || !token.IsExported(name[i+1:]) && !exposed[name] {
				// The program can hold no pointer to it: only the
				// standard library's functions keep values there
				// (%keep).
				continue
			}
			var v *ssa.Global
			if p := g.prog.ImportedPackage(name[:i]); p != nil {
				v, _ = p.Members[name[i+1:]].(*ssa.Global)
			}
			g.byTypeVars[name] = v // nil: not declared in the program's types
		}
	}
	if at := g.byType.At(t); at != nil {
		return at.([]keptAt)
	}
	var out []keptAt
	defer func() { g.byType.Set(t, out) }()
	key := typeKey(t)
	for _, name := range slices.Sorted(maps.Keys(g.byTypeVars)) {
		if v := g.byTypeVars[name]; v != nil {
			if types.Identical(v.Type().(*types.Pointer).Elem(), t) {
				out = append(out, keptAt{name: name})
			}
		} else if vt, ok := g.summary.keeps.varType[name]; !ok || vt == key {
			out = append(out, keptAt{name: name})
		}
	}
	for _, p := range g.prog.AllPackages() {
		if g.isStd(p.Pkg.Path()) {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(p.Members)) {
			if v, ok := p.Members[name].(*ssa.Global); ok && typeHolds(v.Type().(*types.Pointer).Elem(), t, map[types.Type]bool{}) {
				out = append(out, keptAt{prog: v})
			}
		}
	}
	return out
}

// typeKey spells t one way for all the ways Go writes it (writeTypeKey):
// aliases followed, byte and rune as uint8 and int32, any as interface{}.
func typeKey(t types.Type) string {
	var b strings.Builder
	writeTypeKey(&b, t)
	return b.String()
}

// typeHolds reports whether a value of type v is, or holds in its
// fields, elements or what it points to, a value of type t.
func typeHolds(v, t types.Type, seen map[types.Type]bool) bool {
	if types.Identical(v, t) {
		return true
	}
	if seen[v] {
		return false
	}
	seen[v] = true
	if named, ok := types.Unalias(v).(*types.Named); ok && named.Obj().Pkg() != nil && !strings.Contains(named.Obj().Pkg().Path(), ".") {
		return false // the standard library's types: what they hold is theirs
	}
	switch u := v.Underlying().(type) {
	case *types.Pointer:
		return typeHolds(u.Elem(), t, seen)
	case *types.Slice:
		return typeHolds(u.Elem(), t, seen)
	case *types.Array:
		return typeHolds(u.Elem(), t, seen)
	case *types.Map:
		return typeHolds(u.Key(), t, seen) || typeHolds(u.Elem(), t, seen)
	case *types.Chan:
		return typeHolds(u.Elem(), t, seen)
	case *types.Struct:
		for f := range u.Fields() {
			if typeHolds(f.Type(), t, seen) {
				return true
			}
		}
	}
	return false
}

// localObject returns the values stored into a, a local object, and its
// fields and elements, when no other code can store into it: its address
// is only loaded from, stored through here, and given (itself or in an
// interface) to the standard library's functions, not stored, nor given
// to the program's (honest logprefix: &prefixer{w: &buf} in log's default
// Logger holds a bytes.Buffer, not every Write of the program).
func (g *graph) localObject(a *ssa.Alloc) ([]ssa.Value, bool) {
	var out []ssa.Value
	work := []ssa.Value{a}
	seen := map[ssa.Value]bool{}
	for len(work) > 0 {
		addr := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[addr] {
			continue
		}
		seen[addr] = true
		refs := addr.Referrers()
		if refs == nil {
			return nil, false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val == addr {
					return nil, false // kept elsewhere
				}
				out = append(out, r.Val)
			case *ssa.FieldAddr, *ssa.IndexAddr:
				work = append(work, r.(ssa.Value))
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return nil, false
				}
				// A map or a slice it holds: what is stored there
				// through the loaded value (probe mwfield).
				out = append(out, storedThrough(r)...)
			case *ssa.MakeInterface:
				if addr != a {
					return nil, false
				}
				work = append(work, r)
			case ssa.CallInstruction:
				c := r.Common()
				callee := c.StaticCallee()
				if callee == nil || !g.isStd(fnPkgPath(callee)) || c.Value == addr {
					return nil, false
				}
			case *ssa.DebugRef:
			default:
				return nil, false
			}
		}
	}
	return out, true
}
