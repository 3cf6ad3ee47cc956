package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Config is one build configuration of a program: the platform, whether
// cgo is on, the build tags given with -tags, and the GOEXPERIMENT
// settings it turns experiments off with. The tag of an instrumentation
// (race, msan, asan: instrumentTag) stands for the go command's flag,
// which sets it: the files and the types the flag gives are the tag's
// (see Programs.combine and exportFlags).
type Config struct {
	GOOS, GOARCH string
	Cgo          bool
	Tags         []string
	// Off holds the experiments turned off ("noX" in GOEXPERIMENT):
	// -tags cannot unset the tag of one the toolchain turns on by
	// default, and GOEXPERIMENT=noX compiles the files for
	// !goexperiment.X.
	Off []string
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
	if len(c.Off) > 0 {
		s += " GOEXPERIMENT=" + c.experiments()
	}
	return s
}

// experiments is c's GOEXPERIMENT setting: "noX,noY".
func (c Config) experiments() string {
	var off []string
	for _, x := range c.Off {
		off = append(off, "no"+x)
	}
	return strings.Join(off, ",")
}

// env is the go command's environment for c.
func (c Config) env() []string {
	cgo := "0"
	if c.Cgo {
		cgo = "1"
	}
	env := append(os.Environ(), "GOOS="+c.GOOS, "GOARCH="+c.GOARCH, "CGO_ENABLED="+cgo)
	if len(c.Off) > 0 {
		x := c.experiments()
		if set := os.Getenv("GOEXPERIMENT"); set != "" {
			x = set + "," + x
		}
		env = append(env, "GOEXPERIMENT="+x)
	}
	return env
}

// flags are the go command's build flags for c.
func (c Config) flags() []string {
	if len(c.Tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(c.Tags, ",")}
}

// offPrefix marks, among the choices combine combines (Programs.choices),
// an experiment turned off: "GOEXPERIMENT=noX" for the tag
// goexperiment.X.
const offPrefix = "GOEXPERIMENT=no"

// offChoices returns the choices (offPrefix) that turn off each of the
// experiments in off.
func offChoices(off []string) []string {
	var out []string
	for _, x := range off {
		out = append(out, offPrefix+x)
	}
	return out
}

// with returns c with the choices added: tags, and experiments turned off
// (offPrefix).
func (c Config) with(choices []string) Config {
	c.Tags, c.Off = slices.Clone(c.Tags), slices.Clone(c.Off)
	for _, t := range choices {
		if x, ok := strings.CutPrefix(t, offPrefix); ok {
			c.Off = append(c.Off, x)
		} else {
			c.Tags = append(c.Tags, t)
		}
	}
	slices.Sort(c.Tags)
	slices.Sort(c.Off)
	return c
}

// exportFlags are the go command's build flags for the export data of
// c's standard library: the tags of its instrumentations, whose files
// (runtime's race hooks) a package's file for the instrumentation may
// use, and of its GOEXPERIMENTs (encoding/json/v2 is one's; those turned
// off are in env). Other tags of the module's files choose files of the
// standard library too (netgo, osusergo, purego, timetzdata,
// nethttpomithttp2, faketime), which these types do not follow. What
// they choose among is mostly internal (a resolver, assembly or Go, an
// HTTP/2 transport or a stub); a program that names a declaration only
// such a tag adds does not type-check against these types, and fails the
// audit rather than pass it.
func (c Config) exportFlags() []string {
	var tags []string
	for _, t := range c.Tags {
		if instrumentTag(t) || strings.HasPrefix(t, "goexperiment.") {
			tags = append(tags, t)
		}
	}
	if len(tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(tags, ",")}
}

// tagged reports whether c has a tag or turns an experiment off.
func (c Config) tagged() bool { return len(c.Tags)+len(c.Off) > 0 }

// chosen reports whether c has a tag a user chooses with -tags, or a
// GOEXPERIMENT's (one that is not an instrumentation's), or turns an
// experiment off.
func (c Config) chosen() bool {
	return len(c.Off) > 0 || slices.ContainsFunc(c.Tags, func(t string) bool { return !instrumentTag(t) })
}

// instrumented reports whether c has the tag of an instrumentation.
func (c Config) instrumented() bool { return slices.ContainsFunc(c.Tags, instrumentTag) }

// instrumentTag reports whether tag is the build tag of a flag of the go
// command that instruments every package: -race, -msan, -asan.
func instrumentTag(tag string) bool { return tag == "race" || tag == "msan" || tag == "asan" }

// Platform is a GOOS/GOARCH pair.
type Platform struct{ GOOS, GOARCH string }

// AnalyzeAll audits the tool package in dir in every build configuration
// it can be built in for platforms: each platform with cgo off and on (on
// only where the files differ and, for another platform than the host,
// no C file needs a cross-compiler), each with every combination of the
// build tags that the files of the program's non-standard packages in the
// tool's module use, and with cgo off, with -tags cgo too (see combine).
// Configurations that compile the same non-standard files are audited
// once. The report is the union: a tool reaches what it reaches in any
// configuration, with each distinct path.
func AnalyzeAll(ctx context.Context, dir string, platforms []Platform, typeNames []string) (*Report, error) {
	ps, err := Load(ctx, dir, platforms)
	if err != nil {
		return nil, err
	}
	return ps.Analyze(ctx, platforms, typeNames)
}

// Programs is a tool package loaded in every build configuration it can
// be built in for a list of platforms (Load), for AnalyzeAll's audits and
// for the types a generator checks the tool package against.
type Programs struct {
	dir   string
	cands []*candidate
	// reports caches the audits, by configuration and tool names.
	mu      sync.Mutex
	reports map[string]func() (*Report, error)
	// origin is where the standard library's types come from
	// (StdTypesVar, stdExports).
	origin stdOrigin
}

// candidate is a build configuration of the program and what became of
// it: its listing (or the error that kept the go command from listing
// it), and the program audited for it, which may be another
// configuration's with the same files.
type candidate struct {
	config Config
	list   *listing
	err    error
	prog   *program
	// unaudited says why the configuration, whose files differ from
	// every audited one, is not audited on this host: cgo for another
	// platform (no C cross-compiler).
	unaudited string
}

// program is a configuration the audit loads: the first of those that
// compile the same files outside the standard library.
type program struct {
	config Config
	list   *listing
	// l is the program; with a typeError, the packages loaded before
	// the one that failed. A configuration with tags has load instead,
	// which analyze calls.
	l    *loaded
	load func() (*loaded, []PackageError, error)
	errs []PackageError // the parse or type errors that stopped the load
	err  error
	// stdMade is set when the standard library's types of the program
	// were made from source, none read from the go command's export
	// data (stdExports).
	stdMade bool
}

// candidates lists the configurations of platforms with cgo off and on,
// the host's first: of configurations with the same files, the first is
// audited, and only the host's can have cgo.
func candidates(platforms []Platform) []Config {
	var cands []Config
	for _, p := range platforms {
		cands = append(cands, Config{GOOS: p.GOOS, GOARCH: p.GOARCH}, Config{GOOS: p.GOOS, GOARCH: p.GOARCH, Cgo: true})
	}
	slices.SortStableFunc(cands, func(a, b Config) int {
		ha, hb := a.isHost(), b.isHost()
		switch {
		case ha && !hb:
			return -1
		case hb && !ha:
			return 1
		}
		return 0
	})
	return cands
}

// platform is c's platform.
func (c Config) platform() Platform { return Platform{c.GOOS, c.GOARCH} }

// isHost reports whether c is for the host's platform.
func (c Config) isHost() bool { return c.GOOS == runtime.GOOS && c.GOARCH == runtime.GOARCH }

// Load lists the tool package in dir in every build configuration of
// platforms (see AnalyzeAll) and loads each configuration the audit
// needs: the packages outside the standard library type-checked from
// source, the standard library's types from export data, made from its
// source where the build cache may lack the go command's (stdExports).
//
// The go command is asked as little as it can be: one listing of the
// first configuration, from which the others are derived when that is
// certain (see deriver), and one listing of the standard library's
// packages for each configuration that is audited (the host's covers
// what the others need of the host's standard library), which a process
// that loaded them before does not repeat. The configurations are loaded
// side by side.
func Load(ctx context.Context, dir string, platforms []Platform) (*Programs, error) {
	origin, err := stdOriginOf()
	if err != nil {
		return nil, err
	}
	return load(ctx, dir, platforms, bounds{configs: maxConfigs, programs: maxPrograms}, origin)
}

// load is Load with combine's bounds, the standard library's types from
// origin.
func load(ctx context.Context, dir string, platforms []Platform, limit bounds, origin stdOrigin) (*Programs, error) {
	ps := &Programs{dir: dir, reports: map[string]func() (*Report, error){}, origin: origin}
	for _, c := range candidates(platforms) {
		ps.cands = append(ps.cands, &candidate{config: c})
	}
	if len(ps.cands) == 0 {
		return nil, fmt.Errorf("audit: no platform")
	}
	base := ps.cands[0]
	base.list, base.err = listConfig(ctx, dir, base.config)
	if base.err != nil {
		return nil, base.err
	}
	d := newDeriver(base.list)
	ps.list(ctx, d, ps.cands[1:])
	if err := ps.combine(ctx, d, limit); err != nil {
		return nil, err
	}

	// One program for each distinct key, the first configuration's.
	var progs []*program
	seen := map[string]*program{}
	for _, c := range ps.cands {
		if c.err != nil || len(c.list.errs) > 0 {
			continue // the program does not build there, and cannot run there either
		}
		if p := seen[c.list.key]; p != nil {
			c.prog = p
			continue
		}
		if c.config.Cgo && !c.config.isHost() {
			// cgo for another platform needs its C cross-compiler,
			// even for the standard library's runtime/cgo.
			c.unaudited = "no C cross-compiler"
			continue
		}
		p := &program{config: c.config, list: c.list}
		seen[c.list.key] = p
		c.prog = p
		progs = append(progs, p)
	}
	ps.loadPrograms(ctx, progs)
	return ps, nil
}

// maxTags, maxConfigs and maxPrograms bound what combine makes: the
// tags of the main module's files it combines (each doubles the
// combinations it tries), the configurations it adds (listed, most of
// them derived without the go command), and the programs the
// configurations make, each audited (six tags each in files of their
// own, on the six supported platforms, make 1,140 configurations and
// 448 programs; with golang.org/x/sys about 20 s of toolgen's). Past
// them the audit fails: what it cannot cover it does not pass.
const (
	maxTags     = 10
	maxConfigs  = 4096
	maxPrograms = 1024
)

// bounds are combine's bounds on the configurations it adds and the
// programs they make.
type bounds struct{ configs, programs int }

// combine adds to the candidates, for each configuration of a platform
// (cgo off or on, no tag), the build tags of the main module's files in
// every combination that compiles other files: a file for two tags (a &&
// b), for a tag without cgo (a && !cgo: CGO_ENABLED=0 go build -tags
// netgo,osusergo is the usual static build) or for a tag on another
// platform is compiled by a configuration of its own, and so is a file of
// one tag that calls what a file of another sets. Of the combinations
// that choose the same files among those that name one of the tags (any
// package's outside the standard library: the others' choice does not
// depend on them), the first is added.
//
// Each combination is made with and without cgo's tag where cgo is off,
// for every module: CGO_ENABLED=0 go build -tags cgo compiles the files
// for cgo but those that import "C", the tool module's and its
// dependencies', which matters where the configuration with cgo does not
// load (a file with cgo that imports a package that is not there). And it
// is made with and without each instrumentation whose tag a file of a
// package outside the standard library names in its build constraint
// (listing.instruments): go test -race builds a program that calls its
// tools in process, and whatever else its files do, on every platform,
// with cgo and without; the go command builds with -race only where the
// platform has the race detector, but a configuration that no build can
// have only costs an audit.
//
// The files of the configurations added may name new tags or
// instrumentations, which are combined in turn.
func (ps *Programs) combine(ctx context.Context, d *deriver, limit bounds) error {
	bases := slices.Clone(ps.cands)
	have := map[string]bool{}
	for _, c := range bases {
		have[c.config.String()] = true
	}
	chosen := map[string]bool{} // signature's memo
	added := 0
	known := map[string]bool{} // experiment -> whether the go command knows it
	for {
		tags, files, instruments := ps.choices()
		// GOEXPERIMENT=noX for an experiment the go command does not
		// know makes every go command fail: no build has it.
		var err error
		tags = slices.DeleteFunc(tags, func(t string) bool {
			x, ok := strings.CutPrefix(t, offPrefix)
			if !ok || err != nil {
				return false
			}
			k, asked := known[x]
			if !asked {
				if k, err = experimentKnown(ctx, ps.dir, x); err != nil {
					return false
				}
				known[x] = k
			}
			return !k
		})
		if err != nil {
			return err
		}
		if len(tags) > maxTags {
			named := slices.DeleteFunc(slices.Clone(tags), func(t string) bool { return strings.HasPrefix(t, offPrefix) })
			return fmt.Errorf("audit: the files of %s use %d build tags (%s), %d of them a GOEXPERIMENT's, which counts twice (set, and the experiment turned off): %d choices, more than the %d whose every combination the audit covers", ps.dir, len(named), strings.Join(named, ", "), len(tags)-len(named), len(tags), maxTags)
		}
		var more []*candidate
		for _, b := range bases {
			extra := instruments
			if !b.config.Cgo {
				extra = append(slices.Clone(extra), "cgo")
			}
			for vmask := range 1 << len(extra) {
				seen := map[string]bool{}
				for mask := range 1 << len(tags) {
					choice := subset(tags, mask)
					if contradicts(choice) {
						continue
					}
					cf := b.config.with(slices.Concat(subset(extra, vmask), choice))
					sig := d.signature(cf, files, chosen)
					if seen[sig] {
						continue
					}
					seen[sig] = true
					if cf.tagged() && !have[cf.String()] {
						have[cf.String()] = true
						more = append(more, &candidate{config: cf})
					}
				}
			}
		}
		if len(more) == 0 {
			return nil
		}
		const hint = "(each tag that chooses files of its own doubles them, on every platform, with cgo and without): choose fewer platforms (toolgen -platforms) or use fewer tags"
		if added += len(more); added > limit.configs {
			return fmt.Errorf("audit: the build tags that the files of %s use (%s) make more than %d configurations, the most the audit lists %s", ps.dir, strings.Join(slices.Concat(tags, instruments), ", "), limit.configs, hint)
		}
		ps.list(ctx, d, more)
		ps.cands = append(ps.cands, more...)
		keys := map[string]bool{}
		for _, c := range ps.cands {
			if c.err == nil && len(c.list.errs) == 0 {
				keys[c.list.key] = true
			}
		}
		if len(keys) > limit.programs {
			return fmt.Errorf("audit: the build tags that the files of %s use (%s) make %d programs that compile different files, more than the %d the audit covers %s", ps.dir, strings.Join(slices.Concat(tags, instruments), ", "), len(keys), limit.programs, hint)
		}
	}
}

// contradicts reports whether choice both sets the tag of an experiment
// and turns it off.
func contradicts(choice []string) bool {
	for _, t := range choice {
		if x, ok := strings.CutPrefix(t, offPrefix); ok && slices.Contains(choice, "goexperiment."+x) {
			return true
		}
	}
	return false
}

// subset returns the elements of set whose bits are set in mask.
func subset(set []string, mask int) []string {
	var out []string
	for i, s := range set {
		if mask&(1<<i) != 0 {
			out = append(out, s)
		}
	}
	return out
}

// choices returns, from every listing so far, the tags a user chooses
// that the main module's files name (listing.tags), but cgo, which
// combine adds where cgo is off, and for the tag of each GOEXPERIMENT
// (goexperiment.X) the choice to turn it off too (offPrefix+X: -tags sets
// it, and GOEXPERIMENT=noX unsets it where the go command turns it on by
// default, whatever toolgen was built with); the files outside the
// standard library that name one of them, with all their tags and those
// choices; and the instrumentations that files name
// (listing.instruments).
func (ps *Programs) choices() (tags []string, files map[string][]string, instruments []string) {
	for _, c := range ps.cands {
		if c.list == nil {
			continue
		}
		for _, t := range c.list.tags {
			if t != "cgo" && !slices.Contains(tags, t) {
				tags = append(tags, t)
				if x, ok := strings.CutPrefix(t, "goexperiment."); ok {
					tags = append(tags, offPrefix+x)
				}
			}
		}
		for _, t := range c.list.instruments {
			if !slices.Contains(instruments, t) {
				instruments = append(instruments, t)
			}
		}
	}
	slices.Sort(tags)
	slices.Sort(instruments)
	files = map[string][]string{}
	for _, c := range ps.cands {
		if c.list == nil {
			continue
		}
		for f, ts := range c.list.fileTags {
			if slices.ContainsFunc(ts, func(t string) bool { return slices.Contains(tags, t) }) {
				named := slices.Clone(ts)
				for _, t := range ts {
					if x, ok := strings.CutPrefix(t, "goexperiment."); ok {
						named = append(named, offPrefix+x)
					}
				}
				files[f] = named
			}
		}
	}
	return tags, files, instruments
}

// list lists the candidates cs: derived where d can, by the go command
// (side by side) otherwise.
func (ps *Programs) list(ctx context.Context, d *deriver, cs []*candidate) {
	wg := newBounded()
	for _, c := range cs {
		if d.ok {
			if l, ok := d.derive(c.config); ok {
				c.list = l
				continue
			}
		}
		wg.Go(func() { c.list, c.err = listConfig(ctx, ps.dir, c.config) })
	}
	wg.Wait()
}

// loadPrograms loads progs side by side: a listing by the go command
// for those whose derived listing names cgo's files, the standard
// library's export data, then the types and SSA.
func (ps *Programs) loadPrograms(ctx context.Context, progs []*program) {
	wg := newBounded()
	for _, p := range progs {
		if !p.list.loadable {
			wg.Go(func() {
				l, err := listConfig(ctx, ps.dir, p.config)
				switch {
				case err != nil:
					p.err = err
				case len(l.errs) > 0:
					p.err = fmt.Errorf("list %s for %s: %v", ps.dir, p.config, l.errs[0])
				default:
					p.list = l
				}
			})
		}
	}
	wg.Wait()
	// What the other platforms need of the host's standard library (see
	// foreign) comes with the host's program, or from a listing of its
	// own.
	hostNeed := map[string]bool{}
	var hostProg *program
	for _, p := range progs {
		if p.err != nil {
			continue
		}
		if !p.config.isHost() {
			for _, path := range p.list.std {
				hostNeed[path] = true
			}
		} else if hostProg == nil {
			hostProg = p
		}
	}
	type exported struct {
		std  stdExport
		errs map[string]error
		err  error
	}
	exports := make([]exported, len(progs))
	var host exported
	for i, p := range progs {
		if p.err != nil {
			continue
		}
		paths := p.list.std
		if p == hostProg {
			paths = sortedKeys(addAll(hostNeed, paths))
		}
		wg.Go(func() {
			e := &exports[i]
			e.std, e.errs, e.err = stdExports(ctx, ps.dir, p.list.goroot, p.config.env(), p.config.exportFlags(), paths, p.list.stdPkgs, ps.origin)
		})
	}
	if len(hostNeed) > 0 && hostProg == nil {
		// The same go command lists every configuration.
		var goroot string
		for _, p := range progs {
			if p.err == nil && p.list.goroot != "" {
				goroot = p.list.goroot
				break
			}
		}
		wg.Go(func() {
			host.std, host.errs, host.err = stdExports(ctx, ps.dir, goroot, hostEnv(), nil, sortedKeys(hostNeed), nil, ps.origin)
		})
	}
	wg.Wait()
	for i, p := range progs {
		if p == hostProg {
			host = exports[i]
		}
	}
	var hostStd map[string]*types.Package
	if len(hostNeed) > 0 && host.err == nil {
		// The host's packages, in a universe of their own: the other
		// programs only look names up in them.
		hostStd, host.err = readTypes(token.NewFileSet(), host.std, sortedKeys(hostNeed))
		hostStd = hostTypes(hostStd)
	}
	for i, p := range progs {
		if p.err != nil {
			continue
		}
		wg.Go(func() {
			e := exports[i]
			if e.err == nil {
				for _, path := range p.list.std {
					if err := e.errs[path]; err != nil {
						e.err = err
						break
					}
				}
			}
			if e.err != nil {
				p.err = e.err
				return
			}
			p.stdMade = len(e.std.files) == 0 && len(e.std.data) > 0
			var hs map[string]*types.Package
			if !p.config.isHost() {
				if host.err != nil {
					p.err = host.err
					return
				}
				hs = hostStd
			}
			load := func() (*loaded, []PackageError, error) {
				fset := token.NewFileSet()
				std, err := readTypes(fset, e.std, p.list.std)
				if err != nil {
					return nil, nil, err
				}
				return loadProgram(p.list, fset, std, hs)
			}
			if p.config.tagged() {
				// Only audited (Types gives the others'): loaded for
				// each audit, and let go after it, since a module's
				// tags may make hundreds.
				p.load = load
				return
			}
			p.l, p.errs, p.err = load()
		})
	}
	wg.Wait()
}

// bounded runs functions side by side, at most as many at once as there
// are processors: a module whose tags make hundreds of configurations
// would otherwise have a go command, a load or an audit start for each
// at once, and hold the memory of all.
type bounded struct{ g errgroup.Group }

func newBounded() *bounded {
	b := &bounded{}
	b.g.SetLimit(max(2, runtime.GOMAXPROCS(0)))
	return b
}

// Go runs f once a place is free.
func (b *bounded) Go(f func()) { b.g.Go(func() error { f(); return nil }) }

// Wait waits for every function given to Go.
func (b *bounded) Wait() { _ = b.g.Wait() }

// addAll adds paths to set and returns it.
func addAll(set map[string]bool, paths []string) map[string]bool {
	out := maps.Clone(set)
	for _, p := range paths {
		out[p] = true
	}
	return out
}

// hostEnv is the go command's environment for the host's platform, cgo as
// it is by default.
func hostEnv() []string {
	return append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
}

// Analyze audits the tool types typeNames in the configurations of
// platforms, which must be among those Load was given, with their build
// tags: the union, as AnalyzeAll.
func (ps *Programs) Analyze(ctx context.Context, platforms []Platform, typeNames []string) (*Report, error) {
	var progs []*program
	var unaudited []string
	var listErr error
	for _, c := range ps.cands {
		if !slices.Contains(platforms, c.config.platform()) {
			continue
		}
		switch {
		case c.unaudited != "":
			unaudited = append(unaudited, fmt.Sprintf("%s (%s)", c.config, c.unaudited))
		case c.config.instrumented() && (c.err != nil || len(c.list.errs) > 0):
			// The instrumentation's own files need what this host lacks
			// (-msan's cgo files, clang's headers); a build elsewhere may
			// have them: a note, where another configuration's errors say
			// that the program does not build there.
			why := c.err
			if why == nil {
				why = c.list.errs[0]
			}
			unaudited = append(unaudited, fmt.Sprintf("%s (%v)", c.config, why))
		case c.err != nil && c.config.chosen() && errors.As(c.err, new(cgoError)):
			// cgo failed for a combination of tags: it may not build
			// anywhere (two files that export one C name), or only
			// here (a header this machine lacks). Not audited, and
			// named; without tags such a configuration fails the audit.
			unaudited = append(unaudited, fmt.Sprintf("%s (%v)", c.config, errors.Unwrap(c.err)))
		case c.err != nil:
			// The audit could not list it (a file that is not a regular
			// file, a header past what it reads): what the go command
			// builds there is unknown, and another configuration's audit
			// says nothing of it.
			return nil, c.err
		case len(c.list.errs) > 0:
			// A configuration the program does not build in (a package
			// that needs cgo, or one with no file for the platform)
			// cannot run there either.
			listErr = cmp.Or(listErr, fmt.Errorf("list %s for %s: %v", ps.dir, c.config, c.list.errs[0]))
		case !slices.Contains(progs, c.prog):
			progs = append(progs, c.prog)
		}
	}
	if len(progs) == 0 {
		return nil, cmp.Or(listErr, fmt.Errorf("audit: no configuration of %s can be audited on this host", ps.dir))
	}
	reps := make([]*Report, len(progs))
	errs := make([]error, len(progs))
	wg := newBounded()
	for i, p := range progs {
		wg.Go(func() {
			reps[i], errs[i] = ps.analyze(ctx, p, typeNames)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s: %w", p.config, errs[i])
			}
		})
	}
	wg.Wait()
	// A package that needs cgo does not build without it; nor does a
	// combination of tags whose files do not type-check (two files for
	// tags a module takes one at a time, that declare the same name). The
	// go command says so, for every configuration the program stands for
	// (the first, which it is made for, may be one no build has, -tags cgo
	// without cgo, where the standard library's net does not compile):
	// go/parser and go/types refuse what the compiler builds at times (an
	// expression nested deeper than go/parser goes), and what it builds is
	// not passed unaudited. The programs' go commands run side by side,
	// each program's in turn, up to the first configuration that builds.
	type check struct {
		c      *candidate
		builds bool
		err    error
	}
	checks := make([][]*check, len(progs))
	skip := make([]bool, len(progs))
	for i, err := range errs {
		p := progs[i]
		var te typeError
		if err == nil || !errors.As(err, &te) {
			continue
		}
		skip[i] = !p.config.Cgo || p.config.chosen()
		if !skip[i] && !p.config.instrumented() {
			continue
		}
		for _, c := range ps.cands {
			if c.prog == p && slices.Contains(platforms, c.config.platform()) {
				checks[i] = append(checks[i], &check{c: c})
			}
		}
		wg.Go(func() {
			for _, ck := range checks[i] {
				if !ck.c.config.Cgo || ck.c.config.isHost() {
					if ck.builds, ck.err = goBuilds(ctx, ps.dir, ck.c.config); ck.builds || ck.err != nil {
						return
					}
				}
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
		p := progs[i]
		if checks[i] != nil {
			for _, ck := range checks[i] {
				switch {
				case ck.c.config.Cgo && !ck.c.config.isHost():
					// Its build here fails for want of a C
					// cross-compiler whatever its files, which proves
					// nothing: not audited, as a configuration with
					// cgo for another platform whose files differ
					// (found in review of c0dd88a).
					unaudited = append(unaudited, fmt.Sprintf("%s (no C cross-compiler; the same files without it: %v)", ck.c.config, errors.Unwrap(err)))
				case ck.err != nil:
					return nil, fmt.Errorf("%w (and whether the go command builds %s: %v)", err, ck.c.config, ck.err)
				case ck.builds:
					return nil, fmt.Errorf("%w, and the go command builds %s", err, ck.c.config)
				}
			}
		}
		switch {
		case skip[i]:
			continue
		case p.config.chosen() && errors.As(err, new(cgoError)):
			// As a listed configuration's, above.
			unaudited = append(unaudited, fmt.Sprintf("%s (%v)", p.config, errors.Unwrap(err)))
			continue
		case p.config.instrumented():
			// The instrumentation's own files need what this host lacks
			// (-msan's cgo files, clang's headers): a note, not a failure
			// of programs that build without it.
			unaudited = append(unaudited, fmt.Sprintf("%s (%v)", p.config, errors.Unwrap(err)))
			continue
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

// analyze audits typeNames in p, once for each set of names.
func (ps *Programs) analyze(ctx context.Context, p *program, typeNames []string) (*Report, error) {
	if p.err != nil {
		return nil, p.err
	}
	key := fmt.Sprintf("%p %q", p, typeNames)
	ps.mu.Lock()
	f := ps.reports[key]
	if f == nil {
		f = sync.OnceValues(func() (*Report, error) {
			l := p.l
			if p.load != nil {
				var err error
				if l, _, err = p.load(); err != nil {
					return nil, err
				}
			}
			return analyzeLoaded(ctx, l, typeNames)
		})
		ps.reports[key] = f
	}
	ps.mu.Unlock()
	return f()
}

// Package returns the tool package as the go command lists it in the
// first configuration: its import path and name, its module (nil outside
// one) and the errors of listing it.
func (ps *Programs) Package() (path, name string, mod *Module, errs []PackageError) {
	l := ps.cands[0].list
	return l.root.ImportPath, l.root.Name, l.root.Module, l.errs
}

// PackageDirs returns the directories of the packages outside the
// standard library that any listed configuration builds, the tool
// package's among them, each with its import path, sorted by directory.
func (ps *Programs) PackageDirs() []PackageDir {
	dirs := map[string]string{}
	for _, c := range ps.cands {
		if c.list == nil {
			continue
		}
		for _, p := range c.list.pkgs {
			if p.Dir != "" {
				dirs[p.Dir] = p.ImportPath
			}
		}
	}
	out := make([]PackageDir, 0, len(dirs))
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		out = append(out, PackageDir{Path: dirs[d], Dir: d})
	}
	return out
}

// PackageDir is a package's import path and directory.
type PackageDir struct {
	Path, Dir string
}

// Imports is what a configuration's load holds for a caller that checks
// the tool package itself (Programs.Types).
type Imports struct {
	// Platform is the platform the types are of: p's, or another's
	// with the same files outside the standard library, whose load
	// serves both.
	Platform Platform
	// Fset holds the positions of the types.
	Fset *token.FileSet
	// ByPath are the types of the packages the program imports: the
	// standard library's from export data, the others type-checked from
	// source.
	ByPath map[string]*types.Package
	// Root is the tool package as the audit type-checked it, nil when it
	// did not: its files are those of the configuration's platform with
	// the configuration's cgo.
	Root *Root
}

// Root is a type-checked package.
type Root struct {
	Files  []string // the compiled Go files
	Syntax []*ast.File
	Types  *types.Package
	Info   *types.Info
}

// Types returns the load of the configuration that builds the tool package
// for p, with cgo or not. When the program does not build there, errs
// holds why; the tool package's own parse and type errors are left to the
// caller, which checks it (Imports.Root is nil then).
func (ps *Programs) Types(p Platform, cgo bool) (imp *Imports, errs []PackageError, err error) {
	for _, c := range ps.cands {
		if c.config.GOOS != p.GOOS || c.config.GOARCH != p.GOARCH || c.config.Cgo != cgo || c.config.tagged() {
			continue
		}
		switch {
		case c.err != nil:
			return nil, nil, c.err
		case len(c.list.errs) > 0:
			return nil, c.list.errs, nil
		case c.prog == nil:
			return nil, nil, fmt.Errorf("audit: %s is not loaded", c.config)
		}
		pr := c.prog
		var te typeError
		switch {
		case pr.err == nil:
			imp := &Imports{Platform: pr.config.platform(), Fset: pr.l.fset, ByPath: pr.l.byPath}
			if r := pr.l.root; r != nil {
				files := pr.list.root.CompiledGoFiles
				if len(files) == 0 {
					files = pr.list.root.GoFiles
				}
				imp.Root = &Root{Files: files, Syntax: pr.l.rootSyntax, Types: r.Pkg, Info: pr.l.rootInfo}
			}
			return imp, nil, nil
		case errors.As(pr.err, &te) && pr.l != nil && pr.l.failed == pr.list.root.ImportPath:
			// The tool package's own errors, which the caller finds:
			// what it imports is loaded.
			return &Imports{Platform: pr.config.platform(), Fset: pr.l.fset, ByPath: pr.l.byPath}, nil, nil
		case errors.As(pr.err, &te) && len(pr.errs) > 0:
			return nil, pr.errs, nil
		}
		return nil, nil, pr.err
	}
	return nil, nil, fmt.Errorf("audit: no configuration %s/%s, cgo %v, was loaded", p.GOOS, p.GOARCH, cgo)
}

// fileTags returns the build tags of file's //go:build line that are
// neither a platform, cgo, a release, a compiler nor "ignore": the tags a
// user chooses with -tags, and the names of nonPort its file name ends
// with (nameTags). Constraints come before the package clause, so
// the file is scanned up to the clause's keyword and no further
// (headerComments); a file whose header does not scan has none: the go
// command cannot build it where it is compiled. Only the start of the file
// is read (maxHeader); a keyword not in it is an error.
func fileTags(file string) ([]string, error) {
	if !strings.HasSuffix(file, ".go") {
		return nil, nil
	}
	src, cut, err := readStart(file, maxHeader)
	if err != nil {
		return nil, err
	}
	comments, ok := headerComments(src)
	switch {
	case !ok && cut:
		return nil, fmt.Errorf("%s: no package clause in its first %d bytes", file, maxHeader)
	case !ok:
		return nil, nil
	}
	tags := nameTags(file)
	for _, c := range comments {
		expr, err := constraint.Parse(c)
		if err != nil {
			continue
		}
		expr.Eval(func(tag string) bool {
			if t, ok := userTag(tag); ok && !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
			return true
		})
	}
	return tags, nil
}

// headerComments scans src up to its package clause and returns the
// comments before it, each as the file spells it (rawComment); ok is false
// when something else comes first, or src ends or fails to scan before
// the clause. Nothing after the keyword is scanned: a comment inside the
// clause or after it that runs past what was read of the file does not
// hide the tags before it, and neither does the clause's spelling
// (package/* x */main builds).
func headerComments(src []byte) (comments []string, ok bool) {
	var s scanner.Scanner
	failed := false
	file := token.NewFileSet().AddFile("", -1, len(src))
	s.Init(file, src, func(token.Position, string) { failed = true }, scanner.ScanComments)
	for {
		pos, tok, _ := s.Scan()
		switch {
		case failed:
			return nil, false
		case tok == token.COMMENT:
			comments = append(comments, rawComment(src, file.Offset(pos)))
		case tok == token.PACKAGE:
			return comments, true
		default:
			return nil, false
		}
	}
}

// systemTag reports whether tag is set by the toolchain, not by -tags:
// the names of the operating systems and architectures go/build knows but
// byTags, unix, gc, ignore and the releases (go1.N). -tags with one of
// them where the toolchain does not set it makes a build that fails: the
// standard library's files for it do not build, and the compiler refuses
// a file for a newer release. gccgo, the GOEXPERIMENT tags, cgo (see
// Load), byTags and anything else spelled like a release (go1.0,
// go1.26.1) are not: -tags sets them, and a file for one builds.
func systemTag(tag string) bool {
	switch {
	case byTags[tag]:
		return false
	case knownOS[tag], knownArch[tag], tag == "gc", tag == "unix", tag == "ignore":
		return true
	}
	v, ok := strings.CutPrefix(tag, "go1.")
	return ok && len(v) > 0 && len(v) <= 4 && v[0] != '0' && strings.Trim(v, "0123456789") == ""
}

// knownOS and knownArch are the names go/build matches in constraints
// and file names (its syslist), the toolchain's ports and others.
var (
	knownOS = map[string]bool{
		"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true, "illumos": true, "ios": true, "js": true,
		"linux": true, "nacl": true, "netbsd": true, "openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
	}
	knownArch = map[string]bool{
		"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true, "arm64be": true, "loong64": true,
		"mips": true, "mipsle": true, "mips64": true, "mips64le": true, "mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true,
		"ppc64le": true, "riscv": true, "riscv64": true, "s390": true, "s390x": true, "sparc": true, "sparc64": true, "wasm": true,
	}
)

// byTags holds the names of knownOS and knownArch that -tags sets on a
// host of another without breaking the standard library's build: nacl
// and amd64p32, which have no files there, and android, whose build
// links with -buildmode=pie (found in review). A file for one, or named
// for one (x_nacl.go), is built with the tag.
var byTags = map[string]bool{"nacl": true, "amd64p32": true, "android": true}

// nameTags returns the names of byTags that go/build matches in file's
// name (goodOSArchFile: x_GOOS.go, x_GOARCH.go, x_GOOS_GOARCH.go, each
// with _test): the tags a file so named is built with.
func nameTags(file string) []string {
	name, _, _ := strings.Cut(filepath.Base(file), ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return nil
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	var matched []string
	switch n := len(l); {
	case n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]]:
		matched = l[n-2:]
	case n >= 1 && (knownOS[l[n-1]] || knownArch[l[n-1]]):
		matched = l[n-1:]
	}
	var tags []string
	for _, m := range matched {
		if byTags[m] {
			tags = append(tags, m)
		}
	}
	return tags
}

// userTag returns the tag a build is given with -tags for a file's
// constraint naming tag, ok false for systemTag's: go/build takes
// boringcrypto for goexperiment.boringcrypto.
func userTag(tag string) (string, bool) {
	if systemTag(tag) {
		return "", false
	}
	if tag == "boringcrypto" {
		return "goexperiment.boringcrypto", true
	}
	return tag, true
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
