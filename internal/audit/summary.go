package audit

import (
	"bufio"
	"context"
	"fmt"
	"go/build"
	"go/constant"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/toolreg/toolreg/tool"

	_ "embed"
)

// The standard-library summary: every function and variable of the
// standard library that reaches a capability, with the next step of its
// shortest path to each. Building SSA for the standard library from
// source takes longer than a go generate may (about a minute on two
// cores), so the standard library is analysed once per Go release and
// platform, by TestStdSummary, into stdsummary.txt, which ships with the
// package. A run on another release or platform builds the summary itself
// rather than trust a stale one, once: it is cached (summaryCache).
//
// A line is: key TAB capabilities TAB one field per capability, in bit
// order: the next key on the path and "|" where the call is (relative to
// $GOROOT/src), or "=" and the rule at the source; or
// "@" and a method of an interface the standard library asserts values
// to (graph.asserted).

//go:embed stdsummary.txt
var stdSummaryText string

// summary is a parsed standard-library summary.
type summary struct {
	header string
	lines  map[string]string
	// asserted holds the methods of the interfaces the standard library
	// asserts values to (graph.asserted).
	asserted map[string]bool
	// keeps holds the facts of the standard library's package state
	// (keepLines).
	keeps keeps
}

// platform names the release and platform a summary is valid for.
func platform() string {
	return runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}

var (
	builtinOnce sync.Once
	builtin     *summary
	builtinErr  error

	// localMu guards local, this process's summary when stdsummary.txt
	// is for another release or platform: built or read once, and shared
	// by the configurations audited side by side.
	localMu sync.Mutex
	local   *summary
)

// stdSummary returns the summary for this release and platform: the one
// that ships, or the cache's (see summaryCache), or one built now.
func stdSummary(ctx context.Context) (*summary, error) {
	builtinOnce.Do(func() { builtin, builtinErr = parseSummary(stdSummaryText) })
	if builtinErr != nil {
		return nil, builtinErr
	}
	if builtin.header == platform() {
		return builtin, nil
	}
	localMu.Lock()
	defer localMu.Unlock()
	if local != nil {
		return local, nil
	}
	s, err := defaultCache().get(ctx)
	if err != nil {
		return nil, fmt.Errorf("the standard-library summary is for %s, not %s, and building one failed: %w", builtin.header, platform(), err)
	}
	local = s
	return s, nil
}

func parseSummary(text string) (*summary, error) {
	s := &summary{lines: map[string]string{}, asserted: map[string]bool{}, keeps: keeps{
		keepG: map[string]map[int][]string{},
		keepP: map[string]map[int][]int{},
		ret:   map[string][]string{},
		keepR: map[string][]int{},
		reads: map[string][]string{},
	}}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "# "); ok && s.header == "" {
			s.header = h
			continue
		}
		if m, ok := strings.CutPrefix(line, "@"); ok {
			s.asserted[m] = true
			continue
		}
		if k, ok := strings.CutPrefix(line, "%"); ok {
			if err := s.keeps.parse(k); err != nil {
				return nil, err
			}
			continue
		}
		key, rest, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("standard-library summary: bad line %q", line)
		}
		s.lines[key] = rest
	}
	return s, sc.Err()
}

// caps returns the capabilities that key reaches and, for a source, why.
func (s *summary) caps(key string) (tool.Capability, string) {
	rest, ok := s.lines[key]
	if !ok {
		return 0, ""
	}
	f := strings.Split(rest, "\t")
	n, _ := strconv.ParseUint(f[0], 10, 8)
	return tool.Capability(n), "standard library"
}

// chain returns the steps from key to the source of capability bit b,
// each with where it calls the next (a file of $GOROOT/src), and the rule
// at the source.
func (s *summary) chain(key string, b int) (steps []Step, why string) {
	for range 200 {
		st := Step{Func: displayKey(key)}
		rest, ok := s.lines[key]
		if !ok {
			return append(steps, st), ""
		}
		f := strings.Split(rest, "\t")
		n, _ := strconv.ParseUint(f[0], 10, 8)
		i := slices.Index(capBits(tool.Capability(n)), b)
		if i < 0 || 1+i >= len(f) {
			return append(steps, st), ""
		}
		next := f[1+i]
		if w, ok := strings.CutPrefix(next, "="); ok {
			return append(steps, st), w
		}
		next, pos, _ := strings.Cut(next, "|")
		if file, line, ok := strings.Cut(pos, ":"); ok {
			st.Pos.Filename = "$GOROOT/src/" + file
			st.Pos.Line, _ = strconv.Atoi(line)
		}
		steps = append(steps, st)
		key = next
	}
	return steps, ""
}

// BuildStdSummary analyses the whole standard library from source and
// returns its summary, as stdsummary.txt holds it.
func BuildStdSummary(ctx context.Context) (string, error) {
	g, err := stdGraph(ctx)
	if err != nil {
		return "", err
	}
	return summaryText(g), nil
}

// summaryText writes the summary of g, a standard-library graph.
func summaryText(g *graph) string {
	var lines []string
	for _, n := range g.list {
		if n.caps == 0 {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s\t%d", n.key, n.caps)
		for _, bit := range capBits(n.caps) {
			if n.dist[bit] == 0 {
				why := n.why
				if n.pkgRule {
					why = "package " + n.pkg
				}
				fmt.Fprintf(&b, "\t=%s", why)
				continue
			}
			e := n.out[n.next[bit]]
			fmt.Fprintf(&b, "\t%s", e.to.key)
			pos := e.pos
			if !pos.IsValid() && e.to.fn != nil {
				pos = e.to.fn.Pos() // a closure made there, or a function value taken
			}
			if p := g.prog.Fset.Position(pos); p.IsValid() {
				if rel, ok := strings.CutPrefix(filepath.ToSlash(p.Filename), filepath.ToSlash(build.Default.GOROOT)+"/src/"); ok {
					fmt.Fprintf(&b, "|%s:%d", rel, p.Line)
				}
			}
		}
		lines = append(lines, b.String())
	}
	for m := range g.asserted {
		lines = append(lines, "@"+m)
	}
	lines = append(lines, g.keepText...)
	slices.Sort(lines)
	return "# " + platform() + "\n" + strings.Join(lines, "\n") + "\n"
}

// stdGraph builds the graph of the whole standard library.
func stdGraph(ctx context.Context) (*graph, error) {
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: packages.LoadAllSyntax, BuildFlags: BuildFlags()}, "std")
	if err != nil {
		return nil, fmt.Errorf("load the standard library: %w", err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("load the standard library: %s", strings.Join(errs, "; "))
	}
	prog, _ := ssautil.AllPackages(pkgs, 0)
	prog.Build()
	g := newGraph(prog)
	g.stdMode = true
	g.sysNames = sysNames(prog)
	g.inits = stdInits(prog)
	g.asserted = map[string]bool{}
	assertedMethods(g.asserted, func(yield func(*ssa.Function) bool) {
		for fn := range ssautil.AllFunctions(prog) {
			if !yield(fn) {
				return
			}
		}
	})
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Pkg != nil || fn.Origin() != nil || len(fn.Blocks) > 0 {
			g.nodeOf(fn)
		}
	}
	for _, p := range prog.AllPackages() {
		for _, m := range p.Members {
			if v, ok := m.(*ssa.Global); ok {
				g.globalNode(v)
			}
		}
	}
	g.build()
	var fns []*ssa.Function
	for fn := range ssautil.AllFunctions(prog) {
		if len(fn.Blocks) > 0 {
			fns = append(fns, fn)
		}
	}
	slices.SortFunc(fns, func(a, b *ssa.Function) int { return strings.Compare(a.String(), b.String()) })
	g.keepText = keepLines(prog, fns)
	return g, nil
}

// sysNames maps system call numbers to the names of package syscall's
// SYS_ constants, without the prefix.
func sysNames(prog *ssa.Program) map[int64]string {
	out := map[int64]string{}
	for _, path := range []string{"syscall", "golang.org/x/sys/unix"} {
		p := prog.ImportedPackage(path)
		if p == nil {
			continue
		}
		for name, m := range p.Members {
			c, ok := m.(*ssa.NamedConst)
			if !ok || !strings.HasPrefix(name, "SYS_") {
				continue
			}
			if v, ok := constant.Int64Val(c.Value.Value); ok {
				if _, dup := out[v]; !dup || len(name) < len(out[v])+4 {
					out[v] = strings.TrimPrefix(name, "SYS_")
				}
			}
		}
	}
	return out
}

// stdInits maps the variables of each package to the values its
// initializer stores in them.
func stdInits(prog *ssa.Program) map[*ssa.Global][]ssa.Value {
	out := map[*ssa.Global][]ssa.Value{}
	for _, p := range prog.AllPackages() {
		// The package initializer and the package's init functions
		// (init#1…, which it calls): os.Args is set in os's init
		// function, from os.runtime_args (probe osargs).
		for _, name := range slices.Sorted(maps.Keys(p.Members)) {
			init, ok := p.Members[name].(*ssa.Function)
			if !ok || name != "init" && !strings.HasPrefix(name, "init#") {
				continue
			}
			for _, b := range init.Blocks {
				for _, instr := range b.Instrs {
					switch instr := instr.(type) {
					case *ssa.Store:
						if v, ok := instr.Addr.(*ssa.Global); ok {
							out[v] = append(out[v], instr.Val)
						}
					case *ssa.Call:
						// A value made here and given to a function of
						// the package, which may keep it in any of the
						// package's variables it uses: expvar's init
						// publishes expvar.Func(cmdline), which returns
						// os.Args, into the sync.Map expvar.Get reads
						// (probe expvarcmd).
						callee := instr.Call.StaticCallee()
						if callee == nil || callee.Pkg != p || isPkgInit(callee) {
							continue
						}
						var made []ssa.Value
						for _, a := range instr.Call.Args {
							switch a.(type) {
							case *ssa.MakeInterface, *ssa.Function, *ssa.MakeClosure:
								made = append(made, a)
							}
						}
						if len(made) == 0 {
							continue
						}
						for _, v := range pkgGlobals(callee) {
							out[v] = append(out[v], made...)
						}
					}
				}
			}
		}
	}
	return out
}

// pkgGlobals returns the variables of fn's package that fn, and the
// functions of its package it calls or takes the value of, use.
func pkgGlobals(fn *ssa.Function) []*ssa.Global {
	var out []*ssa.Global
	seen := map[*ssa.Function]bool{}
	used := map[*ssa.Global]bool{}
	var ops []*ssa.Value
	var walk func(f *ssa.Function)
	walk = func(f *ssa.Function) {
		if seen[f] || f.Pkg != fn.Pkg {
			return
		}
		seen[f] = true
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					switch v := (*op).(type) {
					case *ssa.Global:
						if v.Pkg == fn.Pkg && !used[v] {
							used[v] = true
							out = append(out, v)
						}
					case *ssa.Function:
						walk(v)
					}
				}
			}
		}
	}
	walk(fn)
	return out
}
