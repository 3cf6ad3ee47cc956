package audit

import (
	"context"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"runtime"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/toolreg/toolreg/tool"
)

// Report is the audit of a tool package.
type Report struct {
	// Tools maps each audited tool type's name to what it reaches.
	Tools map[string]*Result
	// Startup lists, for each non-standard package of the program and
	// each capability its start-up code (init functions and package
	// variable initializers) reaches, the shortest path.
	Startup []Finding
	// Unaudited names the configurations AnalyzeAll could not audit on
	// this host whose non-standard files differ from every audited one,
	// each with the reason: cgo for another platform (no C
	// cross-compiler), or an instrumentation's files that need what this
	// host lacks (the error).
	Unaudited []string
}

// Result is what one tool reaches.
type Result struct {
	Reaches tool.Capability
	// Findings hold the shortest path to each capability reached, in
	// capability order.
	Findings []Finding
	// All holds, per capability, one shortest path through each call or
	// value of Execute (or of the implicit methods) that reaches it: the
	// paths -explain prints.
	All []Finding
}

// Finding is a path from a root to a capability.
type Finding struct {
	Cap tool.Capability // one capability
	// Pkg is the package whose start-up code it is, for start-up
	// findings.
	Pkg string
	// Pos is where the root calls (or makes the value of) the first
	// function on the path.
	Pos   token.Position
	Steps []Step
	// Std continues the path inside the standard library, from the
	// last step to the classified function (each step with where it
	// calls the next, in $GOROOT/src), and Why names the rule there.
	Std []Step
	Why string
}

// Step is a function on a path and where it calls the next one (no
// position for the last step, or inside the standard library).
type Step struct {
	Func string
	Pos  token.Position
}

// Path writes the path as root → f (file:line) → … → boundary, with
// file names passed through rel.
func (f Finding) Path(rel func(string) string, full bool) string {
	var b strings.Builder
	for i, s := range f.Steps {
		if i > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(s.Func)
		if i > 0 && s.Pos.IsValid() && (i < len(f.Steps)-1 || full) {
			fmt.Fprintf(&b, " (%s:%d)", rel(s.Pos.Filename), s.Pos.Line)
		}
	}
	if full {
		for _, s := range f.Std {
			b.WriteString(" → " + s.Func)
			if s.Pos.IsValid() {
				fmt.Fprintf(&b, " (%s:%d)", s.Pos.Filename, s.Pos.Line)
			}
		}
		if f.Why != "" {
			fmt.Fprintf(&b, " [%s]", f.Why)
		}
	}
	return b.String()
}

// Analyze audits the tool package in dir as built for the host: for
// each tool type named in typeNames, its Execute and the methods the
// registry calls implicitly on its result; and the start-up code of the
// program's non-standard packages.
func Analyze(ctx context.Context, dir string, typeNames []string) (*Report, error) {
	return AnalyzeFor(ctx, dir, runtime.GOOS, runtime.GOARCH, typeNames)
}

// AnalyzeFor is Analyze for the program as built for goos/goarch, with
// cgo off when that is not the host (AnalyzeAll audits every
// configuration). The non-standard code is the
// platform's; the standard library is judged by the host's summary,
// which holds for the functions every platform has, and a function of
// the standard library the host does not have counts as Unsafe.
func AnalyzeFor(ctx context.Context, dir, goos, goarch string, typeNames []string) (*Report, error) {
	cross := goos != runtime.GOOS || goarch != runtime.GOARCH
	return AnalyzeConfig(ctx, dir, Config{GOOS: goos, GOARCH: goarch, Cgo: !cross && build.Default.CgoEnabled}, typeNames)
}

// AnalyzeConfig is Analyze for the program as built in configuration c.
func AnalyzeConfig(ctx context.Context, dir string, c Config, typeNames []string) (*Report, error) {
	list, err := listConfig(ctx, dir, c)
	if err != nil {
		return nil, err
	}
	origin, err := stdOriginOf()
	if err != nil {
		return nil, err
	}
	return analyzeListing(ctx, dir, list, typeNames, origin)
}

// analyzeListing is AnalyzeConfig for the program in dir as list lists it,
// the standard library's types from origin (StdTypesVar).
func analyzeListing(ctx context.Context, dir string, list *listing, typeNames []string, origin stdOrigin) (*Report, error) {
	if len(list.errs) > 0 {
		return nil, fmt.Errorf("list %s for %s: %v", dir, list.config, list.errs[0])
	}
	p := &program{config: list.config, list: list}
	(&Programs{dir: dir, origin: origin}).loadPrograms(ctx, []*program{p})
	if p.err != nil {
		return nil, p.err
	}
	return analyzeLoaded(ctx, p.l, typeNames)
}

// analyzeLoaded audits the tool types typeNames of the loaded program l.
func analyzeLoaded(ctx context.Context, l *loaded, typeNames []string) (*Report, error) {
	sum, err := stdSummary(ctx)
	if err != nil {
		return nil, err
	}
	g := userGraph(l, sum)
	g.rootPkg = l.root.Pkg
	roots := map[string]*node{}
	for _, name := range typeNames {
		tn, ok := l.root.Pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			return nil, fmt.Errorf("audit: no type %s in %s", name, l.root.Pkg.Path())
		}
		ptr := types.NewPointer(tn.Type())
		sel := l.prog.MethodSets.MethodSet(ptr).Lookup(tn.Pkg(), "Execute")
		if sel == nil {
			return nil, fmt.Errorf("audit: %s has no Execute method", name)
		}
		exe := l.prog.MethodValue(sel)
		if _, ptrRecv := sel.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); !ptrRecv {
			exe = l.prog.FuncValue(sel.Obj().(*types.Func)) // not the pointer wrapper
		}
		r := g.add(&node{key: "tool " + name, done: true})
		r.out = append(r.out, edge{g.nodeOf(exe), exe.Pos()})
		if res := exe.Signature.Results(); res.Len() > 0 {
			g.methodEdges(r, res.At(0).Type(), nil, exe.Pos(), true)
		}
		roots[name] = r
	}
	inits := map[*ssa.Package]*node{}
	for _, p := range l.nonStd {
		if fn := p.Func("init"); fn != nil {
			inits[p] = g.nodeOf(fn)
		}
	}
	g.build()
	rep := &Report{Tools: map[string]*Result{}}
	for name, r := range roots {
		res := &Result{Reaches: r.caps & allCaps}
		for _, b := range capBits(r.caps & allCaps) {
			res.Findings = append(res.Findings, g.finding(r, b, ""))
			seen := map[*node]bool{}
			exe := r.out[0].to
			for _, e := range append(append([]edge(nil), exe.out...), r.out[1:]...) {
				if e.to.caps&(1<<b) == 0 || seen[e.to] || e.to.dist[b] < 0 {
					continue
				}
				seen[e.to] = true
				f := g.finding(e.to, b, "")
				f.Steps = append([]Step{{Func: "Execute", Pos: l.fset.Position(e.pos)}}, f.Steps...)
				f.Pos = l.fset.Position(e.pos)
				res.All = append(res.All, f)
			}
		}
		rep.Tools[name] = res
	}
	for _, p := range l.nonStd {
		if n := inits[p]; n != nil {
			rep.Startup = append(rep.Startup, g.startup(n, p)...)
		}
	}
	rep.Startup = append(rep.Startup, l.asmFindings...)
	return rep, nil
}

// startup reports the start-up code of package p, whose initializer is n:
// each site (an init function, a package variable's initializer) that
// reaches a capability, or a call the audit cannot resolve (as Unsafe:
// start-up code fails closed), at its own position.
func (g *graph) startup(n *node, p *ssa.Package) []Finding {
	var out []Finding
	seen := map[string]bool{}
	for _, b := range capBits(n.caps) {
		for _, e := range n.out {
			if e.to.caps&(1<<b) == 0 || e.to.dist[b] < 0 {
				continue
			}
			pos := g.prog.Fset.Position(e.pos)
			if e.to.fn != nil && e.to.fn.Pkg == p && strings.HasPrefix(e.to.fn.Name(), "init#") {
				pos = g.prog.Fset.Position(e.to.fn.Pos()) // an init function: where it is
			}
			// One finding per site, and per function the sites call:
			// a hundred variables initialised by the same helper are
			// one finding, at the first.
			key := fmt.Sprintf("%d %s:%d", b, pos.Filename, pos.Line)
			to := e.to.key
			if e.to.fn != nil && e.to.fn.Origin() != nil {
				to = e.to.fn.Origin().String() // the instances of one generic function
			}
			callee := fmt.Sprintf("%d %s", b, to)
			if seen[key] || seen[callee] {
				continue
			}
			seen[key], seen[callee] = true, true
			f := g.finding(e.to, b, p.Pkg.Path())
			f.Steps = append([]Step{{Func: display(n), Pos: pos}}, f.Steps...)
			f.Pos = pos
			if f.Cap == unresolved {
				f.Cap = tool.Unsafe
			}
			out = append(out, f)
		}
	}
	return out
}

// finding makes the path from n to capability bit b.
func (g *graph) finding(n *node, b int, pkg string) Finding {
	f := Finding{Cap: 1 << b, Pkg: pkg}
	steps := g.path(n, b)
	for i, s := range steps {
		if s.n.fn == nil && strings.HasPrefix(s.n.key, "tool ") {
			continue // the pseudo root of a tool
		}
		st := Step{Func: display(s.n)}
		if i <= 1 && s.n.fn != nil && s.n.fn.Name() == "Execute" && strings.HasPrefix(steps[0].n.key, "tool ") {
			st.Func = "Execute"
		}
		if s.pos.IsValid() {
			st.Pos = g.prog.Fset.Position(s.pos)
		} else if s.n.fn != nil && s.n.fn.Pos().IsValid() {
			st.Pos = g.prog.Fset.Position(s.n.fn.Pos()) // an implicit conversion: where the function is
		} else if i+1 < len(steps) && steps[i+1].n.fn != nil {
			st.Pos = g.prog.Fset.Position(steps[i+1].n.fn.Pos())
		}
		if g.generated[st.Pos.Filename] {
			st.Pos = token.Position{} // cgo's code, in the build cache
		}
		f.Steps = append(f.Steps, st)
	}
	if len(f.Steps) > 0 {
		f.Pos = f.Steps[0].Pos
	}
	if last := steps[len(steps)-1].n; last.boundary {
		f.Why = last.why
		if last.why == "standard library" {
			steps, why := g.summary.chain(last.key, b)
			f.Std, f.Why = steps[1:], why
			if n := len(f.Steps); n > 0 && steps[0].Pos.IsValid() {
				f.Steps[n-1].Pos = steps[0].Pos // where it calls into the chain
			}
		}
	}
	return f
}

// display names a node for people: pkg.Func, pkg.Type.Method, or the
// pseudo node's key.
func display(n *node) string {
	if n.fn == nil {
		if name, ok := strings.CutPrefix(n.key, "var "); ok {
			// A package variable, as a function is shown:
			// var toolbox.writeFile.
			return "var " + name[strings.LastIndex(name, "/")+1:]
		}
		return n.key
	}
	return displayKey(funcKey(n.fn))
}

// displayKey shortens an SSA function name: (*net/http.Client).Do
// becomes http.Client.Do, os/exec.Command exec.Command.
func displayKey(k string) string {
	if strings.HasPrefix(k, "var ") || strings.HasPrefix(k, "system call") || strings.HasPrefix(k, "open ") {
		return k
	}
	k = strings.NewReplacer("(*", "", "(", "", ")", "", "$bound", "", "$thunk", "").Replace(k)
	if i := strings.IndexAny(k, "[#"); i >= 0 {
		k = k[:i]
	}
	if i := strings.LastIndex(k, "/"); i >= 0 {
		k = k[i+1:]
	}
	return strings.ReplaceAll(k, "$", ".func")
}
