package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

// The standard library's types, made from its source.
//
// Each configuration the audit loads needs the types of the standard
// packages its program imports. The go command's export data has them
// (`go list -export`), but where the build cache lacks it the go command
// compiles every package first: about a minute of CPU for a toolbox's
// packages, in each configuration. Type-checking the same packages from
// their source takes about two seconds. The result, written as export
// data (gcexportdata.Write), one file a package, is kept in the user's
// cache beside the summary's files (see cache.go):
//
//	$TOOLREG_CACHE, or os.UserCacheDir()/toolreg, /audit/types-<key>.bin
//
// The go command still chooses the files: a `go list -deps` of the
// packages, in the configuration's environment and with its flags, which
// compiles nothing; or the listing of the program, where it was made
// with the same environment and flags and holds the packages with
// everything they import (stdListed), which spares a go command. A
// package's key is a SHA-256 of what its types are a function of: its
// path; the names and contents of the files the listing gives it and
// each package it imports, directly or not, with their directories and
// import maps; the platform's sizes (GOARCH); and this
// program (the cache's format, the Go release it was built with, whose
// go/types checks the files, the golang.org/x/tools that writes and reads
// the data, GODEBUG). A cached file is read only if it passes the checks
// the summary's do (readSealed): a regular file of the user's that no one
// else can write, whose first line names its format and key and whose
// second the SHA-256 of the rest. Positions name the files as the go
// command's export data does, under "$GOROOT/".
//
// What is made from source is read from its export data, as the go
// command's is: a program sees the same types on the first run, which
// type-checks, and on every run after it, which reads the cache. Export
// data made so holds each package's exported declarations and what they
// name; the go command's holds, besides, the unexported declarations its
// inlined bodies name, which the audit does not depend on: a variable of
// the standard library that keeps the program's values is matched by the
// type the summary gives it (rootsByType: log.std, probe logdefaultvar),
// and other paths through unexported types only repeat what the summary
// says (TestAuditFromSourceAsExport).
//
// The go command's export data is used instead where StdTypesVar says so,
// and where the packages cannot be made here: one with files for cgo or SWIG (net, os/user and
// runtime/cgo with cgo on, whose Go files only cgo writes), a listing with
// an error (a package that does not build in the configuration, which the
// go command's listing names), or source that this program's go/types
// refuses (a newer Go release's).

// typesFormat is the version of the format of the cache's files of types:
// change it with what checkStd writes, or a cache written before is read.
const typesFormat = "toolreg std types 1"

// StdTypesVar is the environment variable that chooses where the
// standard library's types come from (stdOrigin): "export" has them read
// from the go command's export data only, never made from source; unset
// or empty, made from source where they can be (stdExports).
const StdTypesVar = "TOOLREG_STD_TYPES"

// stdOrigin is where the standard library's types come from (StdTypesVar).
type stdOrigin int

const (
	originSource stdOrigin = iota // made from source where they can be
	originExport                  // the go command's export data only
)

// stdOriginOf returns the origin StdTypesVar asks for; a value it does
// not know is an error.
func stdOriginOf() (stdOrigin, error) {
	switch v := os.Getenv(StdTypesVar); v {
	case "":
		return originSource, nil
	case "export":
		return originExport, nil
	default:
		return originSource, fmt.Errorf("audit: %s=%q: want export (the go command's export data only) or nothing", StdTypesVar, v)
	}
}

// stdExport is the export data of a configuration's standard packages:
// the go command's files, or data made here from their source.
type stdExport struct {
	files map[string]string // import path -> the go command's export data file
	data  map[string][]byte // import path -> export data made from source
}

// has reports whether e holds the export data of path.
func (e stdExport) has(path string) bool { return e.files[path] != "" || e.data[path] != nil }

// stdExports returns the export data of the standard-library packages
// paths as built with env and flags by the go command of goroot: made
// from their source where it can be, as origin allows; the go command's
// otherwise (exportFiles), which names each package that does not build
// there with its error. listed is a listing the go command in dir made
// with env and flags (the program's), which spares listing paths again
// where it holds them (stdListed); nil for none.
func stdExports(ctx context.Context, dir, goroot string, env, flags, paths []string, listed []*listedPackage, origin stdOrigin) (stdExport, map[string]error, error) {
	if origin != originExport {
		data, err := sourceTypes.get(ctx, dir, goroot, env, flags, paths, listed)
		if err == nil {
			return stdExport{data: data}, map[string]error{}, nil
		}
		if ctx.Err() != nil {
			return stdExport{}, nil, err
		}
		slog.Debug("audit: the standard library's types from the go command's export data", "packages", paths, "why", err)
	}
	files, errs, err := exportFiles(ctx, dir, goroot, env, flags, paths)
	return stdExport{files: files}, errs, err
}

// sourceMemo is this process's memory of the standard library's types made
// from source, by the go command's GOROOT and environment (exportKey)
// and package: a toolbox's tools, and the tests, load the same
// configurations many times. It keeps why the packages asked for could
// not be made too, so that a configuration the go command's export data
// serves is not listed again for nothing. As in exportMemo, one call at a
// time makes what a key lacks; a call the memo answers whole does not
// wait.
type sourceMemo struct {
	mu     sync.Mutex
	data   map[string]map[string][]byte // key -> import path -> export data
	failed map[string]error             // key and paths -> why they cannot be made here
	busy   keyLocks
	// cache is the directory of the cache of types, as cacheDir; make
	// is fromSource. Both are the tests' to replace.
	cache func() string
	make  func(ctx context.Context, dir string, env, flags, paths []string, listed []*listedPackage, cache string) (map[string][]byte, error)
}

// sourceTypes is the memo of this process.
var sourceTypes = &sourceMemo{}

// get returns the export data of paths, made from source, as fromSource.
func (m *sourceMemo) get(ctx context.Context, dir, goroot string, env, flags, paths []string, listed []*listedPackage) (map[string][]byte, error) {
	makeFn, cache := m.make, m.cache
	if makeFn == nil {
		makeFn = fromSource
	}
	if cache == nil {
		cache = cacheDir
	}
	key := exportKey(goroot, env, flags)
	if key == "" {
		return makeFn(ctx, dir, env, flags, paths, listed, cache())
	}
	data, missing, err := m.lookup(key, paths)
	if err != nil || len(missing) == 0 {
		return data, err
	}
	release, err := m.busy.hold(ctx, key)
	if err != nil {
		return nil, err
	}
	defer release()
	if data, missing, err = m.lookup(key, paths); err != nil || len(missing) == 0 {
		return data, err
	}
	made, err := makeFn(ctx, dir, env, flags, missing, listed, cache())
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		if ctx.Err() == nil {
			if m.failed == nil {
				m.failed = map[string]error{}
			}
			m.failed[failedKey(key, paths)] = err
		}
		return nil, err
	}
	if m.data == nil {
		m.data = map[string]map[string][]byte{}
	}
	if m.data[key] == nil {
		m.data[key] = map[string][]byte{}
	}
	maps.Copy(m.data[key], made)
	maps.Copy(data, made)
	return data, nil
}

// lookup returns the export data of paths in the memo under key, and the
// paths it has none for; or why they cannot be made, kept by an earlier
// call.
func (m *sourceMemo) lookup(key string, paths []string) (map[string][]byte, []string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.failed[failedKey(key, paths)]; err != nil {
		return nil, nil, err
	}
	data := map[string][]byte{}
	var missing []string
	for _, path := range paths {
		if d := m.data[key][path]; d != nil {
			data[path] = d
		} else {
			missing = append(missing, path)
		}
	}
	return data, missing, nil
}

// failedKey is the key of sourceMemo.failed.
func failedKey(key string, paths []string) string {
	return fmt.Sprint(key, "\x02", strings.Join(slices.Sorted(slices.Values(paths)), "\x00"))
}

// listFieldsStd are the fields of the listing of standard packages.
const listFieldsStd = "ImportPath,Dir,Standard,GoFiles,CgoFiles,SwigFiles,SwigCXXFiles,Imports,ImportMap,Error"

// fromSource returns the export data of the standard-library packages
// paths, by path, as the go command in dir would build them with env and
// flags: read from cache (a directory; "" for none), or type-checked from
// the files the go command lists and then kept there. The files are
// those of listed, a listing the go command in dir made with env and
// flags, where it holds paths with all they import (stdListed); otherwise
// the go command lists them. An error says why they cannot be made here
// (see the top of this file).
func fromSource(ctx context.Context, dir string, env, flags, paths []string, listed []*listedPackage, cache string) (map[string][]byte, error) {
	if len(paths) == 0 {
		return map[string][]byte{}, nil
	}
	pkgs := stdListed(listed, paths)
	if pkgs == nil {
		var err error
		if pkgs, err = goList(ctx, dir, env, slices.Concat(flags, []string{"-deps", "-json=" + listFieldsStd}, paths)...); err != nil {
			return nil, err
		}
	}
	if err := fromSourceable(pkgs, paths); err != nil {
		return nil, err
	}
	goarch := envValue(env, "GOARCH")
	if types.SizesFor("gc", goarch) == nil {
		return nil, fmt.Errorf("no sizes for GOARCH %q", goarch)
	}
	keys, srcs, err := typesKeys(pkgs, goarch, paths)
	if err != nil {
		return nil, err
	}
	data := map[string][]byte{}
	var check []string
	for _, path := range paths {
		if cache != "" {
			d, err := readSealed(typesPath(cache, keys[path]), typesFormat+" "+keys[path])
			if err == nil && len(d) > 0 {
				data[path] = d
				continue
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				slog.Debug("audit: the cached types of a standard package are not used; type-checking it again", "package", path, "err", err)
			}
		}
		check = append(check, path)
	}
	if len(check) == 0 {
		return data, nil
	}
	made, err := checkStd(closure(pkgs, check), srcs, gorootOf(pkgs), goarch, check)
	if err != nil {
		return nil, err
	}
	for path, d := range made {
		data[path] = d
		if cache != "" {
			if err := writeSealed(cache, typesPath(cache, keys[path]), typesFormat+" "+keys[path], d); err != nil {
				slog.Debug("audit: the types of a standard package are not cached", "package", path, "err", err)
			}
		}
	}
	if cache != "" {
		trim(cache)
	}
	return data, nil
}

// stdListed returns the packages of listed, each after its imports, that
// paths are or import, directly or not: what `go list -deps paths` lists
// with the environment and flags listed was made with, where no package
// has cgo's files. With them the two differ: the go command adds the
// packages cgo's code needs (runtime/cgo) as implicit dependencies, and
// a listing with -compiled adds cgo's imports to a package's; fromSource
// refuses such packages either way (fromSourceable), which this depends
// on. It returns nil unless listed holds each of them and each package
// they import (but "C", which the go command does not list), so that a
// listing it cannot answer whole is made again.
func stdListed(listed []*listedPackage, paths []string) []*listedPackage {
	if len(listed) == 0 {
		return nil
	}
	byPath := map[string]*listedPackage{}
	for _, p := range listed {
		byPath[p.ImportPath] = p
	}
	for _, path := range paths {
		if byPath[path] == nil {
			return nil
		}
	}
	pkgs := closure(listed, paths)
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if imp != "C" && byPath[p.resolve(imp)] == nil {
				return nil
			}
		}
	}
	return pkgs
}

// fromSourceable returns why the packages pkgs, listed with -deps for
// paths, cannot be type-checked from their source here, or nil.
func fromSourceable(pkgs []*listedPackage, paths []string) error {
	listed := map[string]bool{}
	for _, p := range pkgs {
		switch {
		case p.Error != nil:
			return fmt.Errorf("list %s: %s", p.ImportPath, strings.TrimSpace(p.Error.Err))
		case !p.Standard:
			return fmt.Errorf("%s is not the standard library's", p.ImportPath)
		case len(p.CgoFiles)+len(p.SwigFiles)+len(p.SwigCXXFiles) > 0:
			return fmt.Errorf("%s has files for cgo or SWIG, whose Go files only the go command makes", p.ImportPath)
		case len(p.GoFiles) == 0:
			return fmt.Errorf("%s has no Go file", p.ImportPath)
		}
		listed[p.ImportPath] = true
	}
	for _, path := range paths {
		if !listed[path] {
			return fmt.Errorf("the go command did not list %s", path)
		}
	}
	return nil
}

// envValue returns the value of the variable name in env, the last one
// set, as os/exec gives a process.
func envValue(env []string, name string) string {
	for _, kv := range slices.Backward(env) {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// typesKeys returns the key of the cache's types of each package of
// paths, whose listing with their dependencies is pkgs (each after its
// imports), for goarch: a SHA-256 of this program and the package's
// files and those of its dependencies (see the top of this file); and the
// contents of the files, by name, which are what a package is
// type-checked from (a file changed since is not).
func typesKeys(pkgs []*listedPackage, goarch string, paths []string) (map[string]string, map[string][]byte, error) {
	// Each package's own part: its path, directory, import map and
	// files.
	own := map[string][]byte{}
	srcs := map[string][]byte{}
	for _, p := range pkgs {
		var b bytes.Buffer
		fmt.Fprintf(&b, "package %q %q\n", p.ImportPath, p.Dir)
		for _, from := range slices.Sorted(maps.Keys(p.ImportMap)) {
			fmt.Fprintf(&b, "import %q %q\n", from, p.ImportMap[from])
		}
		for _, name := range p.GoFiles {
			src, err := ReadRegular(name)
			if err != nil {
				return nil, nil, fmt.Errorf("package %s: %w", p.ImportPath, err)
			}
			srcs[name] = src
			fmt.Fprintf(&b, "file %q %x\n", name, sha256.Sum256(src))
		}
		own[p.ImportPath] = b.Bytes()
	}
	keys := map[string]string{}
	for _, path := range paths {
		h := sha256.New()
		fmt.Fprintln(h, typesFormat, runtime.Version(), toolsVersion(), goarch, strconv.Quote(os.Getenv("GODEBUG")), strconv.Quote(path))
		// In the order of their paths: listings of the same packages
		// (the program's, or of the standard library alone) order them
		// each after its imports, but not alike.
		for _, p := range slices.SortedFunc(slices.Values(closure(pkgs, []string{path})), func(a, b *listedPackage) int { return strings.Compare(a.ImportPath, b.ImportPath) }) {
			h.Write(own[p.ImportPath])
		}
		keys[path] = hex.EncodeToString(h.Sum(nil))
	}
	return keys, srcs, nil
}

// closure returns the packages of pkgs (each after its imports) that
// paths are or import, directly or not, in the order of pkgs.
func closure(pkgs []*listedPackage, paths []string) []*listedPackage {
	byPath := map[string]*listedPackage{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	in := map[string]bool{}
	var add func(path string)
	add = func(path string) {
		p := byPath[path]
		if p == nil || in[path] {
			return
		}
		in[path] = true
		for _, imp := range p.Imports {
			add(p.resolve(imp))
		}
	}
	for _, path := range paths {
		add(path)
	}
	var out []*listedPackage
	for _, p := range pkgs {
		if in[p.ImportPath] {
			out = append(out, p)
		}
	}
	return out
}

// toolsVersion is the version of golang.org/x/tools this program was built
// with, whose gcexportdata writes and reads the cache's types; "" when the
// program has no build information.
func toolsVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range info.Deps {
		if m.Path == "golang.org/x/tools" {
			if m.Replace != nil {
				m = m.Replace
			}
			return m.Path + "@" + m.Version + " " + m.Sum
		}
	}
	return ""
}

// checkStd type-checks pkgs, standard packages of goroot each after its
// imports, from srcs, their files' contents by name, for goarch, and
// returns the export data of paths among them. Their positions name their
// files as the go command's export data does, under "$GOROOT/". What it
// cannot make is an error, never a panic: gcexportdata panics on what it
// cannot write (package unsafe), and the go command's export data serves
// then.
func checkStd(pkgs []*listedPackage, srcs map[string][]byte, goroot, goarch string, paths []string) (data map[string][]byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, fmt.Errorf("make the standard library's types from source: %v", r)
		}
	}()
	if goroot == "" {
		return nil, errors.New("the listing does not say where GOROOT is")
	}
	fset := token.NewFileSet()
	byPath := map[string]*types.Package{"unsafe": types.Unsafe}
	for _, p := range pkgs {
		if p.ImportPath == "unsafe" {
			continue // go/types' own; its file only documents it
		}
		var files []*ast.File
		for _, name := range p.GoFiles {
			src, ok := srcs[name]
			if !ok {
				return nil, fmt.Errorf("type-check %s: %s was not read", p.ImportPath, name)
			}
			rel, err := filepath.Rel(goroot, name)
			if err != nil || !filepath.IsLocal(rel) {
				return nil, fmt.Errorf("type-check %s: %s is not under GOROOT %s", p.ImportPath, name, goroot)
			}
			f, err := parser.ParseFile(fset, "$GOROOT/"+filepath.ToSlash(rel), src, parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("type-check %s: %w", p.ImportPath, err)
			}
			files = append(files, f)
		}
		conf := types.Config{
			Sizes:    types.SizesFor("gc", goarch),
			Importer: p.importer(byPath),
		}
		tp, err := conf.Check(p.ImportPath, fset, files, nil)
		if err != nil {
			return nil, fmt.Errorf("type-check %s: %w", p.ImportPath, err)
		}
		byPath[p.ImportPath] = tp
	}
	data = map[string][]byte{}
	for _, path := range paths {
		if byPath[path] == types.Unsafe {
			return nil, errors.New("package unsafe has no export data")
		}
		var buf bytes.Buffer
		if err := gcexportdata.Write(&buf, fset, byPath[path]); err != nil {
			return nil, fmt.Errorf("write the export data of %s: %w", path, err)
		}
		data[path] = buf.Bytes()
	}
	return data, nil
}

// typesPath is the cache's file of the types of key.
func typesPath(cache, key string) string {
	return filepath.Join(cache, "types-"+key+".bin")
}
