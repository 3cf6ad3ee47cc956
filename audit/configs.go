package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Config is one build configuration of a program: the platform, whether
// cgo is on, and the build tags given with -tags.
type Config struct {
	GOOS, GOARCH string
	Cgo          bool
	Tags         []string
}

func (c Config) String() string {
	s := c.GOOS + "/" + c.GOARCH
	if c.Cgo {
		s += " cgo"
	} else {
		s += " no cgo"
	}
	if len(c.Tags) > 0 {
		s += " -tags " + strings.Join(c.Tags, ",")
	}
	return s
}

// env is the go command's environment for c.
func (c Config) env() []string {
	cgo := "0"
	if c.Cgo {
		cgo = "1"
	}
	return append(os.Environ(), "GOOS="+c.GOOS, "GOARCH="+c.GOARCH, "CGO_ENABLED="+cgo)
}

// flags are the go command's build flags for c.
func (c Config) flags() []string {
	if len(c.Tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(c.Tags, ",")}
}

// Platform is a GOOS/GOARCH pair.
type Platform struct{ GOOS, GOARCH string }

// AnalyzeAll audits the tool package in dir in every build configuration
// it can be built in for platforms: each platform with cgo off and on (on
// only where the files differ and, for another platform than the host,
// no C file needs a cross-compiler), and, on the host, with each build
// tag that a file of the program's non-standard packages in the tool's
// module uses. Configurations that compile the same non-standard files
// are audited once. The report is the union: a tool reaches what it
// reaches in any configuration, with each distinct path.
func AnalyzeAll(ctx context.Context, dir string, platforms []Platform, typeNames []string) (*Report, error) {
	var cands []Config
	for _, p := range platforms {
		cands = append(cands, Config{GOOS: p.GOOS, GOARCH: p.GOARCH}, Config{GOOS: p.GOOS, GOARCH: p.GOARCH, Cgo: true})
	}
	// The host's first: of configurations with the same files, the first
	// is audited, and only the host's can have cgo.
	slices.SortStableFunc(cands, func(a, b Config) int {
		ha := a.GOOS == runtime.GOOS && a.GOARCH == runtime.GOARCH
		hb := b.GOOS == runtime.GOOS && b.GOARCH == runtime.GOARCH
		switch {
		case ha && !hb:
			return -1
		case hb && !ha:
			return 1
		}
		return 0
	})
	host := Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Cgo: true}
	type listed struct {
		key  string
		tags []string
		cgo  bool // a file imports "C"
		err  error
	}
	list := func(cands []Config) []listed {
		out := make([]listed, len(cands))
		var wg sync.WaitGroup
		for i, c := range cands {
			wg.Go(func() {
				key, tags, cgo, err := listConfig(ctx, dir, c)
				out[i] = listed{key, tags, cgo, err}
			})
		}
		wg.Wait()
		return out
	}
	ls := list(cands)
	var tags []string
	for _, l := range ls {
		for _, t := range l.tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	slices.Sort(tags)
	for _, t := range tags {
		c := host
		c.Tags = []string{t}
		cands = append(cands, c)
	}
	ls = append(ls, list(cands[len(ls):])...)
	var configs []Config
	var unaudited []string
	var listErr error
	seen := map[string]bool{}
	for i, c := range cands {
		l := ls[i]
		if l.err != nil {
			// A configuration the program does not build in (a package
			// that needs cgo, or one with no file for the platform)
			// cannot run there either.
			listErr = cmp.Or(listErr, l.err)
			continue
		}
		if seen[l.key] {
			continue
		}
		seen[l.key] = true
		if c.Cgo && (c.GOOS != runtime.GOOS || c.GOARCH != runtime.GOARCH) {
			// cgo for another platform needs its C cross-compiler,
			// even for the standard library's runtime/cgo.
			unaudited = append(unaudited, c.String())
			continue
		}
		configs = append(configs, c)
	}
	if len(configs) == 0 {
		return nil, cmp.Or(listErr, fmt.Errorf("audit: no configuration of %s can be audited on this host", dir))
	}
	reps := make([]*Report, len(configs))
	errs := make([]error, len(configs))
	var wg sync.WaitGroup
	for i, c := range configs {
		wg.Go(func() {
			reps[i], errs[i] = AnalyzeConfig(ctx, dir, c, typeNames)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s: %w", c, errs[i])
			}
		})
	}
	wg.Wait()
	var ok []*Report
	for i, err := range errs {
		if err == nil {
			ok = append(ok, reps[i])
			continue
		}
		var te typeError
		if !configs[i].Cgo && errors.As(err, &te) {
			continue // a package that needs cgo does not build without it
		}
		return nil, err
	}
	if len(ok) == 0 {
		return nil, errors.Join(errs...)
	}
	rep := union(ok)
	rep.Unaudited = unaudited
	return rep, nil
}

// listConfig lists the non-standard files the program in dir compiles in
// c, as one key, the build tags the files of its main module's packages
// use (compiled or not), and whether a file imports "C".
func listConfig(ctx context.Context, dir string, c Config) (key string, tags []string, cgo bool, err error) {
	pkgs, err := packages.Load(&packages.Config{
		Context:    ctx,
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:        dir,
		Env:        c.env(),
		BuildFlags: c.flags(),
	}, ".")
	if err != nil {
		return "", nil, false, fmt.Errorf("list %s for %s: %w", dir, c, err)
	}
	var b strings.Builder
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		if isStd(p.PkgPath) {
			return
		}
		files := slices.Sorted(slices.Values(p.GoFiles))
		fmt.Fprintf(&b, "%s %s\n", p.PkgPath, strings.Join(files, " "))
		if _, ok := p.Imports["C"]; ok {
			cgo = true
		}
		if p.Module != nil && p.Module.Main {
			for _, f := range append(slices.Clone(p.GoFiles), p.IgnoredFiles...) {
				for _, t := range fileTags(f) {
					if !slices.Contains(tags, t) {
						tags = append(tags, t)
					}
				}
			}
		}
	})
	if len(errs) > 0 {
		return "", nil, false, fmt.Errorf("list %s for %s: %s", dir, c, strings.Join(errs, "; "))
	}
	return b.String(), tags, cgo, nil
}

// fileTags returns the build tags of file's //go:build line that are
// neither a platform, cgo, a release, a compiler nor "ignore": the tags a
// user chooses with -tags.
func fileTags(file string) []string {
	if !strings.HasSuffix(file, ".go") {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return nil
	}
	var tags []string
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			expr.Eval(func(tag string) bool {
				if !systemTag(tag) && !slices.Contains(tags, tag) {
					tags = append(tags, tag)
				}
				return true
			})
		}
	}
	return tags
}

// systemTag reports whether tag is set by the toolchain, not by -tags.
func systemTag(tag string) bool {
	switch tag {
	case "cgo", "gc", "gccgo", "unix", "ignore",
		"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos",
		"386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips", "mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le",
		"ppc", "ppc64", "ppc64le", "riscv", "riscv64", "s390", "s390x", "sparc", "sparc64", "wasm":
		return true
	}
	return strings.HasPrefix(tag, "go1.") || strings.HasPrefix(tag, "goexperiment.")
}

// union joins the reports of several configurations: what a tool reaches
// in any, and each distinct path once.
func union(reps []*Report) *Report {
	out := &Report{Tools: map[string]*Result{}}
	key := func(f Finding) string {
		return fmt.Sprintf("%d %s %s:%d %s", f.Cap, f.Pkg, f.Pos.Filename, f.Pos.Line, f.Path(func(s string) string { return s }, true))
	}
	seen := map[string]bool{}
	add := func(dst *[]Finding, fs []Finding, scope string) {
		for _, f := range fs {
			if k := scope + key(f); !seen[k] {
				seen[k] = true
				*dst = append(*dst, f)
			}
		}
	}
	for _, r := range reps {
		for name, res := range r.Tools {
			o := out.Tools[name]
			if o == nil {
				o = &Result{}
				out.Tools[name] = o
			}
			o.Reaches |= res.Reaches
			add(&o.Findings, res.Findings, "f "+name)
			add(&o.All, res.All, "a "+name)
		}
		add(&out.Startup, r.Startup, "s ")
	}
	for _, o := range out.Tools {
		slices.SortStableFunc(o.Findings, func(a, b Finding) int { return int(a.Cap) - int(b.Cap) })
		slices.SortStableFunc(o.All, func(a, b Finding) int { return int(a.Cap) - int(b.Cap) })
	}
	return out
}

// typeError is a type error of the program in one configuration: it does
// not build there.
type typeError struct{ err error }

func (e typeError) Error() string { return e.err.Error() }
func (e typeError) Unwrap() error { return e.err }
