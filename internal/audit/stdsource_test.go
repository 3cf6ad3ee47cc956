package audit

import (
	"context"
	"errors"
	"go/token"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/go/ssa"

	"github.com/toolreg/toolreg/internal/buildcache"
)

// apiOf returns what p declares that other packages see: each exported
// object, with the underlying type and the pointer's method set (every
// method, exported or not) of each type it names. Two spellings of the
// same type are one: any is interface{}, and a function's parameters
// are named by their types alone (the compiler names unnamed results
// #rv1, #rv2, ...).
func apiOf(p *types.Package) map[string]string {
	qual := types.RelativeTo(p)
	str := func(obj types.Object) string {
		if f, ok := obj.(*types.Func); ok {
			return "func " + f.Name() + types.TypeString(unnamed(f.Signature()), qual)
		}
		return types.ObjectString(obj, qual)
	}
	out := map[string]string{}
	for _, name := range p.Scope().Names() {
		if !token.IsExported(name) {
			continue
		}
		obj := p.Scope().Lookup(name)
		out[name] = str(obj)
		tn, ok := obj.(*types.TypeName)
		if !ok {
			continue
		}
		out[name+" underlying"] = types.TypeString(tn.Type().Underlying(), qual)
		ms := types.NewMethodSet(types.NewPointer(tn.Type()))
		for sel := range ms.Methods() {
			out[name+"."+sel.Obj().Name()] = str(sel.Obj())
		}
	}
	for k, v := range out {
		out[k] = strings.ReplaceAll(v, "interface{}", "any")
	}
	return out
}

// unnamed returns sig without its receiver and with its parameters and
// results unnamed.
func unnamed(sig *types.Signature) *types.Signature {
	strip := func(t *types.Tuple) *types.Tuple {
		var vars []*types.Var
		for v := range t.Variables() {
			vars = append(vars, types.NewParam(token.NoPos, nil, "", v.Type()))
		}
		return types.NewTuple(vars...)
	}
	return types.NewSignatureType(nil, nil, nil, strip(sig.Params()), strip(sig.Results()), sig.Variadic())
}

// TestStdFromSourceAsExport checks that the standard library's types
// made from source (fromSource) are those of the go command's export data
// (exportFiles): every exported object of each package asked for, the
// underlying type and the method set of each type. The short test
// compares the host's; the long one the toolbox's packages on the
// platforms toolgen audits, which the go command compiles for the
// comparison where its build cache lacks them.
func TestStdFromSourceAsExport(t *testing.T) {
	skipInstrumented(t)
	t.Parallel()
	type config struct {
		name  string
		env   []string
		paths []string
	}
	// Packages whose files do not depend on cgo: with cgo on, net and
	// those that import it are made from the go command's export data
	// (TestStdFromSourceRefused).
	configs := []config{{"host", hostEnv(), []string{"context", "encoding/json", "errors", "io/fs", "os", "os/exec", "reflect", "strings", "sync", "syscall", "text/template", "time"}}}
	if !testing.Short() {
		toolbox := []string{"bufio", "context", "encoding/json", "errors", "fmt", "io", "io/fs", "net", "net/http", "net/netip", "net/url", "os", "os/exec", "path/filepath", "regexp", "runtime", "slices", "strconv", "strings", "sync", "syscall", "text/template", "time", "unicode/utf8"}
		for _, goos := range []string{"linux", "darwin", "windows"} {
			configs = append(configs, config{goos + "/amd64", Config{GOOS: goos, GOARCH: "amd64"}.env(), toolbox})
		}
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			pkgs, err := goList(ctx, ".", c.env, "-deps", "-json="+listFields, c.paths[0])
			if err != nil {
				t.Fatal(err)
			}
			goroot := gorootOf(pkgs)
			data, err := fromSource(ctx, ".", c.env, nil, c.paths, nil, "")
			if err != nil {
				t.Fatalf("from source: %v", err)
			}
			files, errs, err := exportFiles(ctx, ".", goroot, c.env, nil, c.paths)
			if err != nil || len(errs) > 0 {
				t.Fatalf("from the go command's export data: %v %v", err, errs)
			}
			fromSrc, err := readTypes(token.NewFileSet(), stdExport{data: data}, c.paths)
			if err != nil {
				t.Fatal(err)
			}
			fromGo, err := readTypes(token.NewFileSet(), stdExport{files: files}, c.paths)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range c.paths {
				src, exp := apiOf(fromSrc[path]), apiOf(fromGo[path])
				if len(exp) == 0 {
					t.Errorf("%s: no exported name in the go command's export data", path)
				}
				if diff := cmp.Diff(exp, src); diff != "" {
					t.Errorf("%s (-export data +from source):\n%s", path, diff)
				}
			}
		})
	}
}

// TestStdFromSourceRefused checks that the packages that cannot be made
// from source here are refused, each with why, and that the audit then
// reads the go command's export data: a package with files for cgo, one
// that does not build in the configuration, a platform without sizes.
func TestStdFromSourceRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cgoOn := append(hostEnv(), "CGO_ENABLED=1")
	if out, err := goList(ctx, ".", cgoOn, "-json=ImportPath,CgoFiles", "net"); err != nil || len(out) != 1 || len(out[0].CgoFiles) == 0 {
		t.Fatalf("net with cgo on has no file for cgo here: %v", err)
	}
	for _, c := range []struct {
		name  string
		env   []string
		paths []string
		want  string
	}{
		{"net with cgo", cgoOn, []string{"strings", "net"}, "has files for cgo or SWIG"},
		{"imports net with cgo", cgoOn, []string{"net/http"}, "has files for cgo or SWIG"},
		{"no such package", hostEnv(), []string{"strings", "no/such/pkg"}, "list no/such/pkg: "},
		{"not the standard library's", hostEnv(), []string{"github.com/google/go-cmp/cmp"}, "is not the standard library's"},
		{"unsafe", hostEnv(), []string{"strings", "unsafe"}, "package unsafe has no export data"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := fromSource(ctx, ".", c.env, nil, c.paths, nil, t.TempDir())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("fromSource(%v) = %v, want an error with %q", c.paths, err, c.want)
			}
		})
	}
	t.Run("audit", func(t *testing.T) {
		t.Parallel()
		// Its own environment, so that the memos start empty.
		env := append(slices.Clone(cgoOn), "TOOLREG_TEST_STD_REFUSED="+t.Name())
		pkgs, err := goList(ctx, ".", env, "-deps", "-json="+listFields, "net")
		if err != nil {
			t.Fatal(err)
		}
		e, errs, err := stdExports(ctx, ".", gorootOf(pkgs), env, nil, []string{"net", "strings"}, nil, originSource)
		if err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		if len(e.data) > 0 || e.files["net"] == "" || e.files["strings"] == "" {
			t.Errorf("net with cgo: made from source %v, export files %v; want the go command's export data of both", slices.Sorted(maps.Keys(e.data)), e.files)
		}
	})
}

// TestTypesCache checks the cache of types made from source: the second
// call reads what the first wrote, and a file that fails a check (cut
// short, changed, writable by others, of another key, not a regular
// file) is not read but made again, and replaced.
func TestTypesCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := hostEnv()
	paths := []string{"unicode/utf8", "unicode"} // which import nothing: quick to make
	dir := t.TempDir()
	first, err := fromSource(ctx, ".", env, nil, paths, nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := filepath.Glob(filepath.Join(dir, "types-*.bin"))
	if err != nil || len(cached) != 2 {
		t.Fatalf("cached %v (%v), want a file for each of %v", cached, err, paths)
	}
	// The file of unicode/utf8, and its contents.
	pkgs, err := goList(ctx, ".", env, "-deps", "-json="+listFieldsStd, "unicode/utf8")
	if err != nil {
		t.Fatal(err)
	}
	keys, _, err := typesKeys(pkgs, runtime.GOARCH, []string{"unicode/utf8"})
	if err != nil {
		t.Fatal(err)
	}
	file := typesPath(dir, keys["unicode/utf8"])
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the cached file: %v, %v; want mode 0600", info.Mode(), err)
	}
	// A cached file marked: the read comes from the cache when the mark
	// is there.
	marked, err := fromSourceData(t, good, func(b []byte) []byte { return b })
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, marked, 0o600); err != nil {
		t.Fatal(err)
	}
	again, err := fromSource(ctx, ".", env, nil, paths, nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if string(again["unicode/utf8"]) != string(first["unicode/utf8"])+"\n" {
		t.Errorf("the second call did not read the cache: %d bytes, want the %d marked", len(again["unicode/utf8"]), len(first["unicode/utf8"])+1)
	}
	if string(again["unicode"]) != string(first["unicode"]) {
		t.Errorf("unicode read from the cache differs from what was written")
	}
	head, rest, _ := strings.Cut(string(good), "\n")
	sum, body, _ := strings.Cut(rest, "\n")
	for _, c := range []struct {
		name string
		text string
		perm os.FileMode
	}{
		{"cut short", string(good[:len(good)-10]), 0o600},
		{"changed, checksum kept", head + "\n" + sum + "\n" + body[:len(body)-1] + string(body[len(body)-1]^1), 0o600},
		{"another key", strings.Replace(head, keys["unicode/utf8"][:8], "00000000", 1) + "\n" + rest, 0o600},
		{"another format", strings.Replace(head, typesFormat, "toolreg std types 0", 1) + "\n" + rest, 0o600},
		{"writable by others", string(marked), 0o666},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(c.text), c.perm); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(file, c.perm); err != nil { // past the umask
				t.Fatal(err)
			}
			got, err := fromSource(ctx, ".", env, nil, paths, nil, dir)
			if err != nil {
				t.Fatal(err)
			}
			if string(got["unicode/utf8"]) != string(first["unicode/utf8"]) {
				t.Errorf("read the cached file (%d bytes), want the types made again (%d)", len(got["unicode/utf8"]), len(first["unicode/utf8"]))
			}
			if now, err := os.ReadFile(file); err != nil || string(now) != string(good) {
				t.Errorf("the cached file is not replaced: %v", err)
			}
		})
	}
	t.Run("a directory", func(t *testing.T) {
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(file, 0o700); err != nil {
			t.Fatal(err)
		}
		got, err := fromSource(ctx, ".", env, nil, paths, nil, dir)
		if err != nil {
			t.Fatal(err)
		}
		if string(got["unicode/utf8"]) != string(first["unicode/utf8"]) {
			t.Errorf("got %d bytes, want the types made again (%d)", len(got["unicode/utf8"]), len(first["unicode/utf8"]))
		}
	})
}

// fromSourceData returns the sealed file good with its body changed by
// change and a newline added, its checksum made anew.
func fromSourceData(t *testing.T, good []byte, change func([]byte) []byte) ([]byte, error) {
	t.Helper()
	head, rest, ok := strings.Cut(string(good), "\n")
	_, body, ok2 := strings.Cut(rest, "\n")
	if !ok || !ok2 {
		return nil, errors.New("not a sealed file")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := writeSealed(dir, file, head, append(change([]byte(body)), '\n')); err != nil {
		return nil, err
	}
	return os.ReadFile(file)
}

// TestTypesKeys checks that the key of a package's types changes with
// what they are a function of: a file's contents or name, the package's
// directory or import map, a dependency's file, the platform's sizes;
// and with nothing else (a package that it does not import, the order of
// the listing).
func TestTypesKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b, c, d := write("a.go", "package a"), write("b.go", "package b"), write("c.go", "package c"), write("d.go", "package d")
	listed := func() []*listedPackage {
		return []*listedPackage{
			{ImportPath: "b", Dir: dir, GoFiles: []string{b}},
			{ImportPath: "c", Dir: dir, GoFiles: []string{c}},
			{ImportPath: "d", Dir: dir, GoFiles: []string{d}},
			{ImportPath: "a", Dir: dir, GoFiles: []string{a}, Imports: []string{"b", "d"}},
		}
	}
	key := func(pkgs []*listedPackage, goarch string) string {
		t.Helper()
		keys, _, err := typesKeys(pkgs, goarch, []string{"a"})
		if err != nil {
			t.Fatal(err)
		}
		return keys["a"]
	}
	base := key(listed(), "amd64")
	if again := key(listed(), "amd64"); again != base {
		t.Fatalf("the key changed with nothing changed: %s, then %s", base, again)
	}
	for _, ch := range []struct {
		name   string
		change func(pkgs []*listedPackage) string // the goarch
		same   bool
	}{
		{"a file's contents", func([]*listedPackage) string { write("a.go", "package a // changed"); return "amd64" }, false},
		{"a dependency's file", func([]*listedPackage) string { write("b.go", "package b // changed"); return "amd64" }, false},
		{"a file's name", func(pkgs []*listedPackage) string {
			pkgs[3].GoFiles = []string{write("a2.go", "package a")}
			return "amd64"
		}, false},
		{"the directory", func(pkgs []*listedPackage) string { pkgs[3].Dir += "x"; return "amd64" }, false},
		{"the import map", func(pkgs []*listedPackage) string {
			pkgs[3].ImportMap = map[string]string{"b": "vendor/b"}
			return "amd64"
		}, false},
		{"the sizes", func([]*listedPackage) string { return "386" }, false},
		{"a package not imported", func([]*listedPackage) string { write("c.go", "package c // changed"); return "amd64" }, true},
		{"a package imported in addition", func(pkgs []*listedPackage) string {
			pkgs[3].Imports = append(pkgs[3].Imports, "c")
			return "amd64"
		}, false},
		// The program's listing and the standard library's own order
		// the same packages each after its imports, not alike.
		{"the order of the listing", func(pkgs []*listedPackage) string { pkgs[0], pkgs[2] = pkgs[2], pkgs[0]; return "amd64" }, true},
	} {
		t.Run(ch.name, func(t *testing.T) {
			for _, f := range []struct{ name, text string }{{"a.go", "package a"}, {"b.go", "package b"}, {"c.go", "package c"}, {"d.go", "package d"}} {
				write(f.name, f.text)
			}
			pkgs := listed()
			goarch := ch.change(pkgs)
			if got := key(pkgs, goarch); (got == base) != ch.same {
				t.Errorf("key %s, base %s: same = %v, want %v", got, base, got == base, ch.same)
			}
		})
	}
	t.Run("a file gone", func(t *testing.T) {
		pkgs := listed()
		pkgs[0].GoFiles = []string{filepath.Join(dir, "gone.go")}
		if _, _, err := typesKeys(pkgs, "amd64", []string{"a"}); err == nil {
			t.Error("a key without a dependency's file")
		}
	})
}

// TestStdListed checks which listings answer for the standard packages
// asked for: one that holds them and each package they import, directly
// or not, through an import map or not ("C" aside, which the go command
// does not list); not one that lacks any.
func TestStdListed(t *testing.T) {
	t.Parallel()
	listed := func() []*listedPackage {
		return []*listedPackage{
			{ImportPath: "unsafe"},
			{ImportPath: "vendor/x"},
			{ImportPath: "b", Imports: []string{"unsafe"}},
			{ImportPath: "c", Imports: []string{"C", "b"}},
			{ImportPath: "a", Imports: []string{"b", "x"}, ImportMap: map[string]string{"x": "vendor/x"}},
			{ImportPath: "prog", Imports: []string{"a", "c"}},
		}
	}
	pathsOf := func(pkgs []*listedPackage) []string {
		if pkgs == nil {
			return nil
		}
		out := []string{}
		for _, p := range pkgs {
			out = append(out, p.ImportPath)
		}
		return out
	}
	for _, c := range []struct {
		name   string
		change func([]*listedPackage) []*listedPackage
		paths  []string
		want   []string // nil: not answered
	}{
		{"a package and its imports, in the listing's order", nil, []string{"a"}, []string{"unsafe", "vendor/x", "b", "a"}},
		{"two packages", nil, []string{"c", "a"}, []string{"unsafe", "vendor/x", "b", "c", "a"}},
		{"an import of C", nil, []string{"c"}, []string{"unsafe", "b", "c"}},
		{"a package not listed", nil, []string{"a", "d"}, nil},
		{"an import not listed", func(pkgs []*listedPackage) []*listedPackage { return slices.Delete(pkgs, 0, 1) }, []string{"a"}, nil},
		{"an import through an import map not listed", func(pkgs []*listedPackage) []*listedPackage { return slices.Delete(pkgs, 1, 2) }, []string{"a"}, nil},
		{"an import map missing", func(pkgs []*listedPackage) []*listedPackage { pkgs[4].ImportMap = nil; return pkgs }, []string{"a"}, nil},
		{"no listing", func([]*listedPackage) []*listedPackage { return nil }, []string{"a"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			pkgs := listed()
			if c.change != nil {
				pkgs = c.change(pkgs)
			}
			if diff := cmp.Diff(c.want, pathsOf(stdListed(pkgs, c.paths))); diff != "" {
				t.Errorf("stdListed(%v) (-want +got):\n%s", c.paths, diff)
			}
		})
	}
	// A listing of more packages, in an order of its own, in a directory
	// gone: the types are made from it, with no go command of their own,
	// the same as from their own listing and under the same keys.
	ctx := context.Background()
	env := hostEnv()
	prog, err := goList(ctx, ".", env, "-deps", "-json="+listFields, "strings")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"unicode/utf8", "unicode"}
	byProg, byOwn := t.TempDir(), t.TempDir()
	gone := filepath.Join(t.TempDir(), "gone")
	fromProg, err := fromSource(ctx, gone, env, nil, paths, prog, byProg)
	if err != nil {
		t.Fatalf("from the program's listing, in a directory gone: %v", err)
	}
	if _, err := fromSource(ctx, gone, env, nil, paths, nil, t.TempDir()); err == nil {
		t.Fatal("without a listing, in a directory gone: no error; the go command did not run")
	}
	fromOwn, err := fromSource(ctx, ".", env, nil, paths, nil, byOwn)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fromOwn, fromProg); diff != "" {
		t.Errorf("types from the program's listing differ from those of their own (-own +program):\n%s", diff)
	}
	names := func(dir string) []string {
		t.Helper()
		files, err := filepath.Glob(filepath.Join(dir, "types-*.bin"))
		if err != nil || len(files) != len(paths) {
			t.Fatalf("cached %v (%v), want a file for each of %v", files, err, paths)
		}
		for i, f := range files {
			files[i] = filepath.Base(f)
		}
		return files
	}
	if diff := cmp.Diff(names(byOwn), names(byProg)); diff != "" {
		t.Errorf("the keys of the cache differ with the listing (-own +program):\n%s", diff)
	}
}

// TestListingKeepsStd checks which listings keep the standard library's
// packages for its types (listing.stdPkgs): one made with the flags they
// are built with, none, an instrumentation's tag or an experiment's; not
// one with a tag a user chooses (which chooses no file of the standard
// library, exportFlags), which the configurations of a module's tags can
// make thousands of.
func TestListingKeepsStd(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "honest", "httpget")
	host := Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	for _, c := range []struct {
		tags []string
		keep bool
	}{
		{nil, true},
		{[]string{"race"}, true},
		{[]string{"goexperiment.jsonv2"}, true},
		{[]string{"mytag"}, false},
		{[]string{"mytag", "race"}, false},
	} {
		name := strings.Join(c.tags, ",")
		if name == "" {
			name = "no tag"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := host
			cfg.Tags = c.tags
			l, err := listConfig(t.Context(), dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(l.stdPkgs) > 0; got != c.keep {
				t.Fatalf("%d standard packages kept, want kept %v", len(l.stdPkgs), c.keep)
			}
			if c.keep && stdListed(l.stdPkgs, l.std) == nil {
				t.Errorf("the packages kept do not answer for %v", l.std)
			}
		})
	}
}

// TestLoadListsOnce checks that Load, where the go command lists a
// configuration's program with the flags of its standard packages, makes
// their types from that listing: a go on the PATH counts the go
// commands, and the standard packages (net/http, whose vendored
// packages come through an import map) are listed by none of their own.
func TestLoadListsOnce(t *testing.T) {
	skipInstrumented(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
	script := "#!/bin/sh\necho \"CGO_ENABLED=$CGO_ENABLED $*\" >> '" + log + "'\nexec '" + goCmd + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(StdTypesVar, "")
	// An environment of its own: the memo of types made from source
	// (sourceTypes) holds none of this process's other tests'.
	t.Setenv("TOOLREG_TEST_EXPORT_MEMO", t.Name())
	ps, err := Load(t.Context(), filepath.Join("testdata", "honest", "httpget"), []Platform{{runtime.GOOS, runtime.GOARCH}})
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	for _, c := range ps.cands {
		if c.prog != nil && c.prog.stdMade {
			made++
		}
	}
	if made == 0 {
		t.Fatal("no configuration had its standard library's types made from source")
	}
	out, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var lists, std []string
	for line := range strings.Lines(string(out)) {
		if strings.Contains(line, " list ") {
			lists = append(lists, line)
		}
		if strings.Contains(line, "-json="+listFieldsStd+" ") && strings.HasPrefix(line, "CGO_ENABLED=0 ") {
			std = append(std, line)
		}
	}
	if len(lists) == 0 {
		t.Fatalf("no go command counted: %q", out)
	}
	if len(std) > 0 {
		t.Errorf("the standard packages of the configuration without cgo were listed apart from its program:\n%s\nall go commands:\n%s", strings.Join(std, ""), out)
	}
}

// TestTypesKeysGODEBUG checks that the key of a package's types changes
// with GODEBUG, which may change what go/types makes (gotypesalias).
func TestTypesKeysGODEBUG(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.go")
	if err := os.WriteFile(a, []byte("package a"), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs := []*listedPackage{{ImportPath: "a", Dir: dir, GoFiles: []string{a}}}
	key := func() string {
		t.Helper()
		keys, _, err := typesKeys(pkgs, "amd64", []string{"a"})
		if err != nil {
			t.Fatal(err)
		}
		return keys["a"]
	}
	t.Setenv("GODEBUG", "")
	base := key()
	t.Setenv("GODEBUG", "gotypesalias=0")
	if key() == base {
		t.Error("the key is the same with GODEBUG=gotypesalias=0 as without")
	}
}

// TestSourceMemo checks the memo of types made from source: what it made
// is not made again, only what a call lacks is, a refusal is kept for the
// same packages, a call whose context ended keeps nothing, and calls for
// the same key wait for the one under way.
func TestSourceMemo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var made [][]string
		gate := make(chan struct{})
		m := &sourceMemo{
			cache: func() string { return "" },
			make: func(ctx context.Context, dir string, env, flags, paths []string, listed []*listedPackage, cache string) (map[string][]byte, error) {
				mu.Lock()
				made = append(made, slices.Clone(paths))
				mu.Unlock()
				select {
				case <-gate:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				if slices.Contains(paths, "net") {
					return nil, errors.New("net has files for cgo")
				}
				out := map[string][]byte{}
				for _, p := range paths {
					out[p] = []byte("data of " + p)
				}
				return out, nil
			},
		}
		ctx := context.Background()
		get := func(ctx context.Context, paths ...string) (map[string][]byte, error) {
			return m.get(ctx, ".", "/goroot", []string{"E=1"}, nil, paths, nil)
		}
		type answer struct {
			data map[string][]byte
			err  error
		}
		async := func(ctx context.Context, paths ...string) <-chan answer {
			c := make(chan answer, 1)
			go func() {
				d, err := get(ctx, paths...)
				c <- answer{d, err}
			}()
			return c
		}
		// Two calls at once: the second waits and makes only what the
		// first did not.
		one := async(ctx, "strings", "os")
		synctest.Wait()
		two := async(ctx, "os", "time")
		synctest.Wait()
		close(gate)
		a, b := <-one, <-two
		if a.err != nil || b.err != nil {
			t.Fatal(a.err, b.err)
		}
		if diff := cmp.Diff(map[string][]byte{"os": []byte("data of os"), "time": []byte("data of time")}, b.data); diff != "" {
			t.Errorf("the second call (-want +got):\n%s", diff)
		}
		if _, err := get(ctx, "time", "strings"); err != nil {
			t.Fatal(err)
		}
		// A refusal is kept for the same packages.
		for range 2 {
			if _, err := get(ctx, "net", "os"); err == nil || !strings.Contains(err.Error(), "cgo") {
				t.Fatalf("net: %v, want the refusal", err)
			}
		}
		// A call whose context ended keeps nothing.
		ended, cancel := context.WithCancel(ctx)
		cancel()
		gate = make(chan struct{})
		if _, err := get(ended, "fmt"); !errors.Is(err, context.Canceled) {
			t.Fatalf("a call whose context ended: %v", err)
		}
		close(gate)
		if d, err := get(ctx, "fmt"); err != nil || string(d["fmt"]) != "data of fmt" {
			t.Fatalf("after a call whose context ended: %q, %v", d, err)
		}
		// A call waiting for another whose context ends returns; the
		// other's result is kept.
		gate = make(chan struct{})
		first := async(ctx, "bufio")
		synctest.Wait()
		waiting, cancelWaiting := context.WithCancel(ctx)
		second := async(waiting, "bufio")
		synctest.Wait()
		cancelWaiting()
		if a := <-second; !errors.Is(a.err, context.Canceled) {
			t.Errorf("a waiting call whose context ended: %q, %v; want its context's error", a.data, a.err)
		}
		close(gate)
		if a := <-first; a.err != nil || string(a.data["bufio"]) != "data of bufio" {
			t.Errorf("the call waited for: %q, %v", a.data, a.err)
		}
		if d, err := get(ctx, "bufio"); err != nil || string(d["bufio"]) != "data of bufio" {
			t.Errorf("after it: %q, %v", d, err)
		}
		want := [][]string{{"strings", "os"}, {"time"}, {"net"}, {"fmt"}, {"fmt"}, {"bufio"}}
		if diff := cmp.Diff(want, made); diff != "" {
			t.Errorf("made (-want +got):\n%s", diff)
		}
	})
}

// TestAuditFromSourceAsExport checks that the audit finds the same with
// the standard library's types made from source as with the go command's
// export data: for the toolbox, on the host (and, in the long test, on
// each platform toolgen audits), the same report; for testdata/all (the
// long test), every tool and probe of
// the tests in one program on the host, the same verdicts, what each tool
// and each package's start-up code reaches. Each is audited without cgo,
// where no standard package has cgo's files and every one is made from
// source, which the test checks: with cgo, net's types come from the go
// command's export data both ways (found in review: so had testdata/all's
// on this host, and the comparison compared that data with itself).
//
// The paths of testdata/all's report differ: the go command's export data
// holds, besides each package's exported declarations and what they name,
// unexported types that its inlined bodies name (os.dirFS, for os.DirFS),
// and the audit's fail-closed method calls (graph.implementers) take their
// methods too, as further paths to what the same tools reach. Which
// unexported declarations those are is the compiler's choice; the audit
// does not depend on them: a value of an unexported type is made by the
// standard library, whose summary carries its methods' capabilities, and
// an unexported variable that keeps the program's values (log.std) is
// matched by the type the summary gives it (TestRootsByTypeUndeclared,
// probes logdefaultvar and logaliasvar, which the audit missed with the
// types made from source before the summary gave it).
func TestAuditFromSourceAsExport(t *testing.T) {
	skipInstrumented(t)
	t.Parallel()
	type audited struct {
		dir       string
		platforms []Platform
		names     []string
		verdicts  bool // compare the verdicts only
	}
	progs := []audited{{
		dir:       filepath.Join("..", "..", "toolbox"),
		platforms: []Platform{{runtime.GOOS, runtime.GOARCH}},
		names:     []string{"Weather", "WebSearch", "Now", "PingURL", "DiskUsage"},
	}}
	if !testing.Short() {
		// The other platforms toolgen audits, and every tool of the
		// tests.
		for _, goos := range []string{"linux", "darwin", "windows"} {
			if goos != runtime.GOOS {
				progs[0].platforms = append(progs[0].platforms, Platform{goos, "amd64"})
			}
		}
		progs = append(progs, audited{
			dir:       filepath.Join("testdata", "all"),
			platforms: []Platform{{runtime.GOOS, runtime.GOARCH}},
			names:     slices.Sorted(maps.Keys(aliases(t))),
			verdicts:  true,
		})
	}
	for _, p := range progs {
		for _, pl := range p.platforms {
			t.Run(filepath.Base(p.dir)+"/"+pl.GOOS, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				c := Config{GOOS: pl.GOOS, GOARCH: pl.GOARCH}
				list, err := listConfig(ctx, p.dir, c)
				if err != nil {
					t.Fatal(err)
				}
				// As analyzeListing, and which way the types came.
				audit := func(origin stdOrigin) (*Report, bool) {
					t.Helper()
					prog := &program{config: list.config, list: list}
					(&Programs{dir: p.dir, origin: origin}).loadPrograms(ctx, []*program{prog})
					if prog.err != nil {
						t.Fatal(prog.err)
					}
					rep, err := analyzeLoaded(ctx, prog.l, p.names)
					if err != nil {
						t.Fatal(err)
					}
					return rep, prog.stdMade
				}
				fromSrc, made := audit(originSource)
				fromGo, madeToo := audit(originExport)
				if !made || madeToo {
					t.Errorf("%s: the standard library's types made from source %v, then %v; want true, then false (the go command's export data)", c, made, madeToo)
				}
				if len(fromGo.Tools) != len(p.names) || !slices.ContainsFunc(slices.Collect(maps.Values(fromGo.Tools)), func(r *Result) bool { return len(r.Findings) > 0 }) {
					t.Fatalf("the audit from export data reports %d tools, none reaching anything: %v", len(fromGo.Tools), fromGo.Tools)
				}
				if diff := cmp.Diff(verdicts(fromGo), verdicts(fromSrc)); diff != "" {
					t.Errorf("the audit's verdicts (-from export data +from source):\n%s", diff)
				}
				if p.verdicts {
					return
				}
				if diff := cmp.Diff(fromGo, fromSrc); diff != "" {
					t.Errorf("the audit (-from export data +from source):\n%s", diff)
				}
			})
		}
	}
}

// TestLoadMakesStdFromSource checks that Load, with StdTypesVar unset,
// makes the standard library's types from source: for the toolbox on
// another platform than the host, every audited program's
// (program.stdMade).
func TestLoadMakesStdFromSource(t *testing.T) {
	skipInstrumented(t)
	t.Setenv(StdTypesVar, "")
	ps, err := Load(context.Background(), filepath.Join("..", "..", "toolbox"), []Platform{{"windows", "amd64"}})
	if err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, c := range ps.cands {
		if c.prog == nil || c.prog.l == nil {
			continue
		}
		loaded++
		if !c.prog.stdMade {
			t.Errorf("%s: the standard library's types were not made from source", c.config)
		}
	}
	if loaded == 0 {
		t.Fatalf("no program loaded of %d configurations", len(ps.cands))
	}
}

// verdicts returns what a report says of each tool and of the start-up
// code, without the paths: what each tool reaches, and each capability
// each package's start-up code reaches.
func verdicts(r *Report) map[string]string {
	out := map[string]string{}
	for name, res := range r.Tools {
		out[name] = res.Reaches.String()
	}
	for _, f := range r.Startup {
		out["start-up of "+f.Pkg] += f.Cap.String() + " "
	}
	return out
}

// skipInstrumented skips a test of the types made from source under the
// race detector (or -msan, -asan), where go/types is ten times slower and
// the test binary's own configuration has its types from the go
// command's export data (see TestMain).
func skipInstrumented(t *testing.T) {
	t.Helper()
	if len(buildcache.Flags()) > 0 {
		t.Skipf("go/types is ten times slower under %v, and the test binary's own configuration makes no types from source there; .ci/run runs it without: go test -run '^%s$' ./internal/audit", buildcache.Flags(), t.Name())
	}
}

// TestStdTypesVar checks StdTypesVar: each value Load and AnalyzeFor
// take, and a value they do not know, an error that names it. The module
// loaded imports unicode/utf8 alone, which imports nothing, so that the
// go command's export data, with an empty build cache, compiles one
// package (the repository's toolbox compiled net/http's closure).
func TestStdTypesVar(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/tools\n\ngo 1.26\n",
		"tool/tool.go": "package tool\n\nimport \"unicode/utf8\"\n\n// Valid reports whether s is UTF-8.\nfunc Valid(s string) bool { return utf8.ValidString(s) }\n",
	})
	dir = filepath.Join(dir, "tool")
	platforms := []Platform{{runtime.GOOS, runtime.GOARCH}}
	t.Setenv(StdTypesVar, "sourse")
	if _, err := Load(ctx, dir, platforms); err == nil || !strings.Contains(err.Error(), StdTypesVar+`="sourse"`) {
		t.Errorf("Load with %s=sourse: %v, want an error that names it", StdTypesVar, err)
	}
	if _, err := AnalyzeFor(ctx, dir, runtime.GOOS, runtime.GOARCH, []string{"Valid"}); err == nil || !strings.Contains(err.Error(), StdTypesVar+`="sourse"`) {
		t.Errorf("AnalyzeFor with %s=sourse: %v, want an error that names it", StdTypesVar, err)
	}
	for v, want := range map[string]stdOrigin{"": originSource, "export": originExport} {
		t.Setenv(StdTypesVar, v)
		ps, err := Load(ctx, dir, platforms)
		if err != nil {
			t.Fatal(err)
		}
		if ps.origin != want {
			t.Errorf("Load with %s=%q: origin %d, want %d", StdTypesVar, v, ps.origin, want)
		}
	}
}

// TestSummaryVarTypes checks that the summary that ships gives the type
// of every variable its keeps name (%vartype), which rootsByType matches
// where the program's types do not declare the variable.
func TestSummaryVarTypes(t *testing.T) {
	s, err := parseSummary(stdSummaryText)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for name := range s.keeps.vars {
		if s.keeps.varType[name] == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 || len(s.keeps.vars) == 0 {
		t.Errorf("%d variables of %d without a type: %v", len(missing), len(s.keeps.vars), slices.Sorted(slices.Values(missing)))
	}
	// Spelled as typeKey spells them: byte as uint8, a function's
	// results in parentheses.
	for name, want := range map[string]string{
		"log.std":                        "*log.Logger",
		"crypto/ed25519.privateKeyCache": "crypto/internal/fips140cache.Cache[uint8, crypto/internal/fips140/ed25519.PrivateKey]",
		"flag.Usage":                     "func() ()",
	} {
		if got := s.keeps.varType[name]; got != want {
			t.Errorf("the type of %s is %q, want %q", name, got, want)
		}
	}
}

// TestRootsByTypeUndeclared checks rootsByType on a variable of the
// standard library that the program's types do not declare (log.std, an
// unexported variable log.Default returns): taken for the type the
// summary gives it, written with an alias or not, not for another, and
// whether the program holds its package or not; taken for any type when
// the summary gives none (fail closed); and never when the program
// cannot point to it (unexported, not returned).
func TestRootsByTypeUndeclared(t *testing.T) {
	logPkg := types.NewPackage("log", "log")
	logger := types.NewNamed(types.NewTypeName(token.NoPos, logPkg, "Logger", nil), types.NewStruct(nil, nil), nil)
	logPkg.Scope().Insert(logger.Obj())
	logPkg.MarkComplete()
	for _, c := range []struct {
		name    string
		varType map[string]string
		ret     bool // log.Default returns it
		t       types.Type
		want    []string
	}{
		{"its type", map[string]string{"log.std": "*log.Logger"}, true, types.NewPointer(logger), []string{"log.std"}},
		{"its type through an alias", map[string]string{"log.std": "*log.Logger"}, true, types.NewPointer(types.NewAlias(types.NewTypeName(token.NoPos, nil, "L", nil), logger)), []string{"log.std"}},
		{"another type", map[string]string{"log.std": "*log.Logger"}, true, logger, nil},
		{"no type given", nil, true, types.Typ[types.Int], []string{"log.std"}},
		{"not returned", map[string]string{"log.std": "*log.Logger"}, false, types.NewPointer(logger), nil},
		{"its package not in the program", map[string]string{"log.std": "*log.Logger"}, true, types.NewPointer(logger), []string{"log.std"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := ssa.NewProgram(token.NewFileSet(), 0)
			if c.name != "its package not in the program" {
				prog.CreatePackage(logPkg, nil, nil, true)
			}
			k := keeps{vars: map[string]bool{"log.std": true}, ret: map[string][]string{}, varType: c.varType}
			if c.ret {
				k.ret["log.Default"] = []string{"log.std"}
			}
			g := &graph{prog: prog, summary: &summary{keeps: k}, std: map[string]bool{"log": true}}
			var got []string
			for _, at := range g.rootsByType(c.t) {
				got = append(got, at.name)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("rootsByType(%s) (-want +got):\n%s", c.t, diff)
			}
		})
	}
}
