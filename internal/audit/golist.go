package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

// The audit asks the go command directly, one `go list` a question, and
// not through go/packages, which runs two more go commands (the release
// tags, the type sizes) before each listing: toolgen waits on every one.

// listedPackage is a package as `go list -json` describes it.
type listedPackage struct {
	ImportPath      string
	Name            string
	Dir             string
	Standard        bool
	GoFiles         []string
	CgoFiles        []string
	CompiledGoFiles []string
	SwigFiles       []string
	SwigCXXFiles    []string
	IgnoredGoFiles  []string
	Imports         []string
	// Deps, every package the package depends on, is listed only by
	// the tests, which list many programs with one go command.
	Deps       []string
	ImportMap  map[string]string
	Export     string
	Module     *Module
	Error      *listError
	DepsErrors []*listError
}

// Module is the module of a listed package.
type Module struct {
	Path      string
	Version   string
	Dir       string
	GoVersion string
	Main      bool
	Replace   *Module
}

// genuineXSys reports whether p is a package of golang.org/x/sys as the
// module proxy serves it (checked against go.sum): not replaced, not
// vendored, not the main module. The audit's rules that name its
// functions (cpuid in golang.org/x/sys/cpu, unix.Open's flags,
// unix.Syscall's number) describe that code, not whatever a module
// author puts under the path.
func genuineXSys(p *listedPackage) bool {
	return genuineGolangX(p) && p.Module.Path == "golang.org/x/sys"
}

// genuineGolangX reports whether p is a package of a golang.org/x module,
// x/sys, x/net and the others, as the module proxy serves it (checked
// against go.sum): not replaced, not vendored, not the main module.
func genuineGolangX(p *listedPackage) bool {
	m := p.Module
	return m != nil && strings.HasPrefix(m.Path, "golang.org/x/") && m.Version != "" && m.Replace == nil && !m.Main &&
		!strings.Contains(filepath.ToSlash(p.Dir), "/vendor/")
}

// listError is an error of `go list -e`.
type listError struct {
	Pos string
	Err string
}

// PackageError is an error that keeps a package from building: a listing
// error of the go command, or a parse or type error with its position.
type PackageError struct {
	Pos  string // file:line:col, or ""
	Msg  string
	Type bool // a parse or type error, not the go command's
}

func (e PackageError) Error() string {
	if e.Pos == "" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}

// The fields a listing asks for: nothing the go command computes slowly
// (no Stale, no Deps).
const listFields = "ImportPath,Name,Dir,Standard,GoFiles,CgoFiles,SwigFiles,SwigCXXFiles,IgnoredGoFiles,Imports,ImportMap,Module,Error,DepsErrors"

// BuildFlags returns the flags each go command of the audit's is given
// before its own, as are toolgen's: they turn off the instrumentation that
// GOFLAGS may turn on, -race, -msan and -asan. The go command refuses those
// flags without cgo and on platforms without the sanitizer, that is for
// most of the configurations a tool is audited in. What such a build
// compiles is audited all the same: a file only it compiles has the
// flag's build tag (race, msan, asan), and each configuration is audited
// again with the tag a file of any package names (Programs.combine).
func BuildFlags() []string {
	return []string{"-race=false", "-msan=false", "-asan=false"}
}

// goBuilds reports whether the go command builds the package in dir in
// c (`go build`, which compiles and discards it): false when the compiler
// refuses its Go files, an error when it cannot be asked or fails for
// another reason, which may be this machine's (an assembly file's
// #include of a header it lacks: found in review of b149745).
func goBuilds(ctx context.Context, dir string, c Config) (bool, error) {
	cmd := exec.CommandContext(ctx, "go", slices.Concat([]string{"build"}, BuildFlags(), c.flags(), []string{"."})...)
	cmd.Dir = dir
	cmd.Env = c.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if _, failed := errors.AsType[*exec.ExitError](err); failed && ctx.Err() == nil {
		if goErrorsOnly(stderr.String()) {
			return false, nil
		}
		return false, fmt.Errorf("go build failed, and not in its Go files alone: %s", bytes.TrimSpace(stderr.Bytes()))
	}
	if err != nil {
		return false, fmt.Errorf("go build: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return true, nil
}

// goErrorsOnly reports whether the output of a go build that failed names
// errors of Go files alone, as the compiler prints them ("x.go:3:7: ..."),
// under the packages' headers ("# path").
func goErrorsOnly(out string) bool {
	seen := false
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "", strings.HasPrefix(line, "# "), strings.HasPrefix(line, "\t"), line == "too many errors":
		case goErrorLine.MatchString(line):
			seen = true
		default:
			return false
		}
	}
	return seen
}

// goErrorLine matches an error of the compiler's in a Go file.
var goErrorLine = regexp.MustCompile(`^\S+\.go:\d+(:\d+)?: `)

// experimentKnown reports whether the go command in dir knows the
// experiment x: whether it accepts GOEXPERIMENT=noX (`go env`, which
// refuses an experiment it does not know, as every go command does).
func experimentKnown(ctx context.Context, dir, x string) (bool, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOEXPERIMENT")
	cmd.Dir = dir
	cmd.Env = Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Off: []string{x}}.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if _, refused := errors.AsType[*exec.ExitError](err); refused && ctx.Err() == nil {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("go env GOEXPERIMENT: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return true, nil
}

// goList runs `go list -e` with BuildFlags and args in dir and env, and
// returns the packages it prints, in its order (with -deps, every
// package after its dependencies).
func goList(ctx context.Context, dir string, env []string, args ...string) ([]*listedPackage, error) {
	cmd := exec.CommandContext(ctx, "go", slices.Concat([]string{"list", "-e"}, BuildFlags(), args)...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	var out []*listedPackage
	dec := json.NewDecoder(&stdout)
	for {
		p := new(listedPackage)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: decode its output: %w", err)
		}
		for _, files := range []*[]string{&p.GoFiles, &p.CgoFiles, &p.CompiledGoFiles, &p.IgnoredGoFiles} {
			for i, f := range *files {
				if !filepath.IsAbs(f) {
					(*files)[i] = filepath.Join(p.Dir, f)
				}
			}
		}
		out = append(out, p)
	}
}

// errs returns the listing errors of p.
func (p *listedPackage) errs() []PackageError {
	var out []PackageError
	if p.Error != nil {
		out = append(out, PackageError{Pos: p.Error.Pos, Msg: strings.TrimSpace(p.Error.Err)})
	}
	return out
}

// resolve returns the package path an import path of p's files names.
func (p *listedPackage) resolve(path string) string {
	if r, ok := p.ImportMap[path]; ok {
		return r
	}
	return path
}

// exportMemo is this process's memory of where the go command put the
// export data of standard-library packages, by GOROOT and environment,
// which together decide what it builds: the tools of a toolbox, and
// the tests of the audit and toolgen, audit programs that import the same
// packages, and each `go list -export` is a go command of its own. A file
// gone since (a build cache cleaned meanwhile) is asked for again.
//
// One go command at a time lists for a key: with an empty build cache,
// two at once would each compile the same packages, since go commands
// share the cache's results but not the work under way. The second waits
// for the first and asks only for what it did not list; a call the memo
// answers whole does not wait.
type exportMemo struct {
	mu    sync.Mutex
	files map[string]map[string]string // key (see exportKey) -> import path -> file
	busy  keyLocks
	// list runs the go command; goList when nil.
	list func(ctx context.Context, dir string, env []string, args ...string) ([]*listedPackage, error)
}

// goExports is the memo of this process.
var goExports = &exportMemo{}

// exportKey is the memo's key for packages built by the go command of
// goroot with env and flags; "" (no memo) when goroot is unknown.
func exportKey(goroot string, env, flags []string) string {
	if goroot == "" {
		return ""
	}
	return goroot + "\x00" + strings.Join(env, "\x00") + "\x01" + strings.Join(flags, "\x00")
}

// exportFiles lists the export data of the standard-library packages
// paths as built with env and flags by the go command of goroot, with
// this process's memo.
func exportFiles(ctx context.Context, dir, goroot string, env, flags []string, paths []string) (map[string]string, map[string]error, error) {
	return goExports.exportFiles(ctx, dir, goroot, env, flags, paths)
}

// lookup returns the export files of paths in the memo under key, each
// checked to be there still, and the paths it has none for.
func (m *exportMemo) lookup(key string, paths []string) (files map[string]string, missing []string) {
	known := map[string]string{}
	if key != "" {
		m.mu.Lock()
		for _, path := range paths {
			if f, ok := m.files[key][path]; ok {
				known[path] = f
			}
		}
		m.mu.Unlock()
	}
	files = map[string]string{}
	for _, path := range paths {
		if f, ok := known[path]; ok {
			if _, err := os.Stat(f); err == nil {
				files[path] = f
				continue
			}
		}
		missing = append(missing, path)
	}
	return files, missing
}

// keyLocks lets one call at a time work for a key.
type keyLocks struct {
	mu   sync.Mutex
	busy map[string]chan struct{} // key -> closed when its call is done
}

// hold waits until no other call holds key and takes it; the function it
// returns gives it back.
func (k *keyLocks) hold(ctx context.Context, key string) (func(), error) {
	for {
		k.mu.Lock()
		done, busy := k.busy[key]
		if !busy {
			done = make(chan struct{})
			if k.busy == nil {
				k.busy = map[string]chan struct{}{}
			}
			k.busy[key] = done
			k.mu.Unlock()
			return func() {
				k.mu.Lock()
				delete(k.busy, key)
				k.mu.Unlock()
				close(done)
			}, nil
		}
		k.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return nil, fmt.Errorf("load the standard library's types: waiting for another go command: %w", ctx.Err())
		}
	}
}

// exportFiles lists the export data of the standard-library packages
// paths as built with env and flags by the go command of goroot: one `go
// list -export` for those this process has not asked of before. Each
// package that does not build there has its error instead.
func (m *exportMemo) exportFiles(ctx context.Context, dir, goroot string, env, flags []string, paths []string) (map[string]string, map[string]error, error) {
	errs := map[string]error{}
	key := exportKey(goroot, env, flags)
	files, ask := m.lookup(key, paths)
	if len(ask) == 0 {
		return files, errs, nil
	}
	if key != "" {
		// What is missing may be what a go command under way lists.
		release, err := m.busy.hold(ctx, key)
		if err != nil {
			return nil, nil, err
		}
		defer release()
		if files, ask = m.lookup(key, paths); len(ask) == 0 {
			return files, errs, nil
		}
	}
	list := m.list
	if list == nil {
		list = goList
	}
	pkgs, err := list(ctx, dir, env, slices.Concat(flags, []string{"-export", "-json=ImportPath,Export,Error"}, ask)...)
	if err != nil {
		return nil, nil, fmt.Errorf("load the standard library's types: %w", err)
	}
	learned := map[string]string{}
	for _, p := range pkgs {
		switch {
		case p.Error != nil:
			errs[p.ImportPath] = fmt.Errorf("load %s: %s", p.ImportPath, strings.TrimSpace(p.Error.Err))
		case p.Export == "":
			errs[p.ImportPath] = fmt.Errorf("load %s: no export data", p.ImportPath)
		default:
			files[p.ImportPath] = p.Export
			learned[p.ImportPath] = p.Export
		}
	}
	if key != "" && len(learned) > 0 {
		m.mu.Lock()
		if m.files == nil {
			m.files = map[string]map[string]string{}
		}
		f := m.files[key]
		if f == nil {
			f = map[string]string{}
			m.files[key] = f
		}
		maps.Copy(f, learned)
		m.mu.Unlock()
	}
	return files, errs, nil
}

// gorootOf returns the GOROOT of the go command that listed pkgs, from
// the directory of a standard-library package among them, or "".
func gorootOf(pkgs []*listedPackage) string {
	for _, p := range pkgs {
		if !p.Standard || p.Dir == "" {
			continue
		}
		suffix := string(filepath.Separator) + "src" + string(filepath.Separator) + filepath.FromSlash(p.ImportPath)
		if root, ok := strings.CutSuffix(p.Dir, suffix); ok && root != "" {
			return root
		}
	}
	return ""
}

// readTypes reads the types of the packages paths from their export
// data, e, into fset. The packages they refer to are made in the same
// universe, complete or not; paths without export data are left out.
func readTypes(fset *token.FileSet, e stdExport, paths []string) (map[string]*types.Package, error) {
	byPath := map[string]*types.Package{"unsafe": types.Unsafe}
	// In path order, so that the packages are made the same way every
	// run.
	for _, path := range slices.Sorted(slices.Values(paths)) {
		if q := byPath[path]; q != nil && q.Complete() || !e.has(path) {
			continue
		}
		var err error
		if data := e.data[path]; data != nil {
			_, err = gcexportdata.Read(bytes.NewReader(data), fset, byPath, path)
		} else {
			err = readExport(fset, byPath, path, e.files[path])
		}
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", path, err)
		}
	}
	out := map[string]*types.Package{}
	for _, path := range paths {
		if p := byPath[path]; p != nil && e.has(path) {
			out[path] = p
		}
	}
	return out, nil
}

// readExport reads the export data of package path from file, written by
// the go command, into byPath, which it completes.
func readExport(fset *token.FileSet, byPath map[string]*types.Package, path, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	// The go command writes the compiler's archive, from which NewReader
	// extracts the export data, as go/packages does.
	r, err := gcexportdata.NewReader(f) //lint:ignore SA1019 go list -export writes the compiler's archive until go1.28
	if err != nil {
		return err
	}
	_, err = gcexportdata.Read(r, fset, byPath, path)
	return err
}

// sortedKeys returns the keys of a set, sorted.
func sortedKeys(set map[string]bool) []string {
	return slices.Sorted(maps.Keys(set))
}
