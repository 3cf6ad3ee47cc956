package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/build"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
)

// TestDeriveMatchesGoList derives the listing of every configuration
// AnalyzeAll considers from the first one's and compares each with the go
// command's own listing of it: the same files, imports of the standard
// library and build tags. The programs: this repository's toolbox (a file
// per platform) and testdata/configs (files for cgo, and a build tag).
//
// With -short, every configuration is still derived, but only some are
// compared with a listing of the go command (shortSample: each cgo
// setting, each system, the build tag), a go command each; without
// -short, as CI runs it, every derived configuration is.
func TestDeriveMatchesGoList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	platforms := []Platform{{"darwin", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"}}
	for _, dir := range []string{filepath.Join("..", "..", "toolbox"), filepath.Join("testdata", "configs")} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			cands := candidates(platforms)
			cands = append(cands, Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Cgo: true, Tags: []string{"audittag"}})
			base, err := listConfig(ctx, dir, cands[0])
			if err != nil {
				t.Fatal(err)
			}
			d := newDeriver(base)
			if !d.ok {
				t.Fatalf("the deriver does not reproduce the go command's listing of %s", cands[0])
			}
			var wg sync.WaitGroup
			derived := 0
			for _, c := range cands[1:] {
				l, ok := d.derive(c)
				if !ok {
					t.Logf("%s: not derived", c)
					continue
				}
				derived++
				if testing.Short() && !shortSample(c) {
					continue
				}
				wg.Go(func() {
					real, err := listConfig(ctx, dir, c)
					if err != nil {
						t.Errorf("%s: %v", c, err)
						return
					}
					if len(real.errs) > 0 {
						t.Errorf("%s: derived, but the go command's listing has errors: %v", c, real.errs)
						return
					}
					if diff := cmp.Diff(summarize(real), summarize(l)); diff != "" {
						t.Errorf("%s: the derived listing differs from the go command's (-go list +derived):\n%s", c, diff)
					}
				})
			}
			wg.Wait()
			if derived < len(cands)/2 {
				t.Errorf("only %d of %d configurations derived", derived, len(cands)-1)
			}
		})
	}
}

// shortSample reports whether TestDeriveMatchesGoList compares c with the
// go command's listing under -short: the host's configurations and the
// build tag's, windows/arm64 with cgo and without, and darwin/amd64
// without cgo.
func shortSample(c Config) bool {
	switch {
	case c.isHost(), c.GOOS == "windows" && c.GOARCH == "arm64":
		return true
	}
	return c.GOOS == "darwin" && c.GOARCH == "amd64" && !c.Cgo
}

// summarize is what a listing says that the audit uses.
func summarize(l *listing) map[string]string {
	out := map[string]string{
		"key": l.key, "std": strings.Join(l.std, " "), "tags": strings.Join(l.tags, " "), "instruments": strings.Join(l.instruments, " "),
		"cgo": map[bool]string{true: "cgo"}[l.cgo],
	}
	for _, p := range l.pkgs {
		out[p.ImportPath] = strings.Join(withoutC(p.Imports), " ")
	}
	return out
}

// TestUncertainTag checks the tags the deriver leaves to the go command.
func TestUncertainTag(t *testing.T) {
	newest := releaseMinor()
	for tag, want := range map[string]bool{
		"linux": false, "cgo": false, "audittag": false, "go1.21": false,
		"amd64.v3": true, "arm64.v8.1": true, "goexperiment.jsonv2": true,
		"go1.999": true, "go1.x": true,
	} {
		if got := uncertainTag(tag); got != want {
			t.Errorf("uncertainTag(%q) = %v, want %v", tag, got, want)
		}
	}
	tags := build.Default.ReleaseTags
	if newest < 26 || !uncertainTag(tags[len(tags)-1]) {
		t.Errorf("the newest release tag, %s (%d), is not uncertain", tags[len(tags)-1], newest)
	}
}

// TestExportMemo asks for the export data of standard-library packages
// twice with the same GOROOT and environment: the second time from a
// directory that does not exist, where any go command fails, so that an
// answer proves none ran. A file gone from the build cache, another
// environment and an unknown GOROOT each make it ask the go command again.
// The packages import nothing, so that with an empty build cache the go
// command compiles those two alone.
func TestExportMemo(t *testing.T) {
	ctx := context.Background()
	pkgs, err := goList(ctx, ".", hostEnv(), "-deps", "-json="+listFields, "strings")
	if err != nil {
		t.Fatal(err)
	}
	goroot := gorootOf(pkgs)
	if fi, err := os.Stat(filepath.Join(goroot, "src", "strings", "strings.go")); goroot == "" || err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("gorootOf = %q, which has no src/strings/strings.go: %v", goroot, err)
	}
	env := append(hostEnv(), "TOOLREG_TEST_EXPORT_MEMO="+t.Name())
	first, errs, err := exportFiles(ctx, ".", goroot, env, nil, []string{"unicode/utf8", "unicode"})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	if len(first) != 2 {
		t.Fatalf("export files: %v, want unicode/utf8 and unicode", first)
	}
	gone := filepath.Join(t.TempDir(), "nothing")
	again, errs, err := exportFiles(ctx, gone, goroot, env, nil, []string{"unicode", "unicode/utf8"})
	if err != nil || len(errs) > 0 {
		t.Fatalf("from the memo: %v %v", err, errs)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("from the memo (-first +again):\n%s", diff)
	}
	// Each of these needs the go command, which cannot run in gone.
	goExports.mu.Lock()
	goExports.files[exportKey(goroot, env, nil)]["unicode"] = filepath.Join(t.TempDir(), "removed")
	goExports.mu.Unlock()
	for name, c := range map[string]struct {
		goroot string
		env    []string
		paths  []string
	}{
		"a file gone":         {goroot, env, []string{"unicode"}},
		"a package not asked": {goroot, env, []string{"unicode/utf8", "bytes"}},
		"another environment": {goroot, append(env, "CGO_ENABLED=0"), []string{"unicode/utf8"}},
		"an unknown GOROOT":   {"", env, []string{"unicode/utf8"}},
	} {
		if files, _, err := exportFiles(ctx, gone, c.goroot, c.env, nil, c.paths); err == nil {
			t.Errorf("%s: answered %v without the go command", name, files)
		}
	}
}

// TestExportMemoOneCommandAKey checks that calls for the same key wait
// for the go command under way and ask only for what it did not list:
// with an empty build cache, go commands at once would each compile the
// same packages. Calls for another key do not wait.
func TestExportMemoOneCommandAKey(t *testing.T) {
	dir := t.TempDir()
	export := func(path string) string { return filepath.Join(dir, strings.ReplaceAll(path, "/", "_")+".a") }
	for _, p := range []string{"strings", "unicode", "bytes", "os"} {
		if err := os.WriteFile(export(p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var asked [][]string
		release := make(chan struct{}) // the go commands' answer, when closed
		m := &exportMemo{list: func(ctx context.Context, dir string, env []string, args ...string) ([]*listedPackage, error) {
			paths := args[2:]
			mu.Lock()
			asked = append(asked, append([]string{env[0]}, paths...))
			gate := release
			mu.Unlock()
			select {
			case <-gate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if env[0] == "FAIL=1" {
				return nil, errors.New("the go command failed")
			}
			var out []*listedPackage
			for _, p := range paths {
				out = append(out, &listedPackage{ImportPath: p, Export: export(p)})
			}
			return out, nil
		}}
		type answer struct {
			files map[string]string
			err   error
		}
		call := func(ctx context.Context, env string, paths ...string) <-chan answer {
			c := make(chan answer, 1)
			go func() {
				files, _, err := m.exportFiles(ctx, dir, "/goroot", []string{env}, nil, paths)
				c <- answer{files, err}
			}()
			return c
		}
		// newGate holds the go commands started from now on until it is
		// closed; commands counts those started so far.
		newGate := func() chan struct{} {
			mu.Lock()
			defer mu.Unlock()
			release = make(chan struct{})
			return release
		}
		commands := func() int {
			mu.Lock()
			defer mu.Unlock()
			return len(asked)
		}
		first := call(context.Background(), "K=1", "strings", "unicode")
		synctest.Wait()
		second := call(context.Background(), "K=1", "unicode", "strings", "bytes")
		third := call(context.Background(), "K=1", "strings", "bytes")
		other := call(context.Background(), "K=2", "strings")
		cancelled, cancel := context.WithCancel(context.Background())
		gaveUp := call(cancelled, "K=1", "os")
		synctest.Wait()
		mu.Lock()
		want := [][]string{{"K=1", "strings", "unicode"}, {"K=2", "strings"}}
		if diff := cmp.Diff(want, asked); diff != "" {
			t.Errorf("go commands while the first runs (-want +got):\n%s", diff)
		}
		mu.Unlock()
		cancel()
		if a := <-gaveUp; !errors.Is(a.err, context.Canceled) {
			t.Errorf("a call given up while it waited: %v, want context.Canceled", a.err)
		}
		close(release)
		for name, c := range map[string]struct {
			got  <-chan answer
			want []string
		}{
			"first":   {first, []string{"strings", "unicode"}},
			"second":  {second, []string{"bytes", "strings", "unicode"}},
			"third":   {third, []string{"bytes", "strings"}},
			"another": {other, []string{"strings"}},
		} {
			a := <-c.got
			if a.err != nil {
				t.Errorf("%s: %v", name, a.err)
				continue
			}
			wantFiles := map[string]string{}
			for _, p := range c.want {
				wantFiles[p] = export(p)
			}
			if diff := cmp.Diff(wantFiles, a.files); diff != "" {
				t.Errorf("%s: export files (-want +got):\n%s", name, diff)
			}
		}
		// The second or the third asked for what the first had not
		// listed, and the other, which waited for it, for nothing; the
		// one given up, for nothing.
		want = append(want, []string{"K=1", "bytes"})
		if diff := cmp.Diff(want, asked); diff != "" {
			t.Errorf("go commands in all (-want +got):\n%s", diff)
		}
		// A go command that fails leaves the key to the next call, which
		// asks again.
		gate := newGate()
		failed := call(context.Background(), "FAIL=1", "strings")
		synctest.Wait()
		next := call(context.Background(), "FAIL=1", "strings")
		synctest.Wait()
		if n := commands(); n != 4 {
			t.Errorf("%d go commands with the failing one under way, want 4", n)
		}
		close(gate)
		if a := <-failed; a.err == nil {
			t.Errorf("the failing go command's call answered %v", a.files)
		}
		if a := <-next; a.err == nil {
			t.Errorf("the call after it answered %v", a.files)
		}
		if n := commands(); n != 5 {
			t.Errorf("%d go commands after the failing one, want 5: the next call asks again", n)
		}
		// A call the memo answers whole does not wait for a go command
		// under way for its key.
		gate = newGate()
		slow := call(context.Background(), "K=1", "os")
		synctest.Wait()
		fast := call(context.Background(), "K=1", "strings", "bytes")
		// A wait would leave every goroutine blocked here, which
		// synctest reports.
		if a := <-fast; a.err != nil || len(a.files) != 2 {
			t.Errorf("a call the memo answers: %v %v", a.files, a.err)
		}
		close(gate)
		if a := <-slow; a.err != nil || a.files["os"] != export("os") {
			t.Errorf("the call for os: %v %v", a.files, a.err)
		}
		if n := commands(); n != 6 {
			t.Errorf("%d go commands, want 6: os only", n)
		}
	})
}

func TestGorootOf(t *testing.T) {
	root := filepath.FromSlash("/opt/go")
	for _, c := range []struct {
		pkgs []*listedPackage
		want string
	}{
		{[]*listedPackage{{ImportPath: "fmt", Standard: true, Dir: filepath.Join(root, "src", "fmt")}}, root},
		{[]*listedPackage{{ImportPath: "example.com/m", Dir: "/m"}, {ImportPath: "vendor/golang.org/x/net/idna", Standard: true, Dir: filepath.Join(root, "src", "vendor", "golang.org", "x", "net", "idna")}}, root},
		{[]*listedPackage{{ImportPath: "fmt", Standard: true, Dir: filepath.Join(root, "elsewhere", "fmt")}}, ""},  // not under src
		{[]*listedPackage{{ImportPath: "fmt", Standard: true}}, ""},                                                // no directory
		{[]*listedPackage{{ImportPath: "example.com/m", Dir: filepath.Join(root, "src", "example.com", "m")}}, ""}, // not standard
		{nil, ""},
	} {
		if got := gorootOf(c.pkgs); got != c.want {
			t.Errorf("gorootOf(%v) = %q, want %q", c.pkgs, got, c.want)
		}
	}
}

// TestGenuineXSys checks which packages the rules that name
// golang.org/x/sys apply to: the module as the proxy serves it, not one
// replaced by a directory, vendored, the main module or a module whose
// path only begins the same (probe syscpu of cmd/toolgen).
func TestGenuineXSys(t *testing.T) {
	xsys := func(p *Module, dir string) *listedPackage {
		return &listedPackage{ImportPath: "golang.org/x/sys/cpu", Dir: dir, Module: p}
	}
	cache := "/home/u/go/pkg/mod/golang.org/x/sys@v0.40.0/cpu"
	for _, c := range []struct {
		name string
		p    *listedPackage
		want bool
	}{
		{"module cache", xsys(&Module{Path: "golang.org/x/sys", Version: "v0.40.0"}, cache), true},
		{"replaced", xsys(&Module{Path: "golang.org/x/sys", Version: "v0.40.0", Replace: &Module{Path: "./sys"}}, "/src/sys/cpu"), false},
		{"vendored", xsys(&Module{Path: "golang.org/x/sys", Version: "v0.40.0"}, "/src/m/vendor/golang.org/x/sys/cpu"), false},
		{"main module", xsys(&Module{Path: "golang.org/x/sys", Main: true}, "/src/sys/cpu"), false},
		{"another module", xsys(&Module{Path: "golang.org/x/sys/cpuhack"}, "/src/cpuhack"), false},
		{"no module", xsys(nil, cache), false},
	} {
		if got := genuineXSys(c.p); got != c.want {
			t.Errorf("%s: genuineXSys = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestUncertainConstraintNotDerived: a package whose files are chosen by
// the Go release (go1.27 and !go1.27) is one the deriver cannot evaluate;
// it derives nothing, and every configuration is listed by the go
// command. toolgen had panicked on such a package (a nil listing ranged
// over).
func TestUncertainConstraintNotDerived(t *testing.T) {
	t.Parallel()
	base, err := listConfig(context.Background(), filepath.Join("testdata", "releasetag"), Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH})
	if err != nil {
		t.Fatal(err)
	}
	if d := newDeriver(base); d.ok {
		t.Error("the deriver claims to reproduce a listing whose files depend on the Go release")
	}
}

// TestListCompiled lists the host's configuration with cgo: with
// -compiled, and so the Go files cgo writes, for a program with a
// package outside the standard library that imports "C" (testdata/cgolist,
// which the audit then loads); without, for one that has none
// (testdata/configs, whose files only name cgo in build constraints),
// which costs the go command half the time.
func TestListCompiled(t *testing.T) {
	t.Parallel()
	if !build.Default.CgoEnabled {
		t.Skip("cgo is off on this machine")
	}
	host := Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Cgo: true}
	for _, tc := range []struct {
		dir       string
		generated bool
	}{{"cgolist", true}, {"configs", false}} {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", tc.dir)
			l, err := listConfig(t.Context(), dir, host)
			if err != nil {
				t.Fatal(err)
			}
			// A plain listing has no CompiledGoFiles; one with -compiled
			// has cgo's files among them.
			var generated []string
			for _, f := range l.root.CompiledGoFiles {
				if !slices.Contains(l.root.GoFiles, f) {
					generated = append(generated, f)
				}
			}
			if tc.generated && len(generated) == 0 {
				t.Errorf("CompiledGoFiles %q: no file of cgo's, want some", l.root.CompiledGoFiles)
			}
			if !tc.generated && l.root.CompiledGoFiles != nil {
				t.Errorf("CompiledGoFiles %q, want none: listed with -compiled", l.root.CompiledGoFiles)
			}
			if _, err := AnalyzeConfig(t.Context(), dir, host, []string{"Tool"}); err != nil {
				t.Errorf("audit %s: %v", dir, err)
			}
		})
	}
}

// TestGOFLAGSInstrumentation checks that GOFLAGS asking for -race, -msan
// or -asan, which the go command refuses without cgo and on platforms
// without the sanitizer, changes no listing of the audit's (BuildFlags),
// and that the file a -race build compiles (testdata/instrumented's
// run_race.go, which runs a program) is audited, in a configuration of
// the host's built with -race, with GOFLAGS and without (as go test -race
// builds a program that calls its tools in process). Without BuildFlags
// every listing but the host's with cgo fails; without the instrumented
// configuration the probe reaches nothing. (Only -race is audited here:
// the standard library for -msan and -asan would be compiled for this
// test alone.)
func TestGOFLAGSInstrumentation(t *testing.T) {
	// Not parallel: it sets GOFLAGS, which every go command reads.
	ctx := context.Background()
	dir := filepath.Join("testdata", "instrumented")
	configs := []Config{
		{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Cgo: true},
		{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH},
		{GOOS: "windows", GOARCH: "arm64"},
	}
	list := func(t *testing.T) map[string]map[string]string {
		t.Helper()
		out := map[string]map[string]string{}
		for _, c := range configs {
			l, err := listConfig(ctx, dir, c)
			if err != nil {
				t.Errorf("%s: %v", c, err)
				continue
			}
			if len(l.errs) > 0 {
				t.Errorf("%s: %v", c, l.errs)
			}
			out[c.String()] = summarize(l)
		}
		return out
	}
	want := list(t)
	for c, l := range want {
		if l["tags"] != "" || l["instruments"] != "race" {
			t.Errorf("%s: the probe's tags %q and instrumentations %q, want none and race", c, l["tags"], l["instruments"])
		}
	}
	for _, flag := range []string{"-race", "-msan", "-asan"} {
		t.Run(flag, func(t *testing.T) {
			t.Setenv("GOFLAGS", flag)
			if diff := cmp.Diff(want, list(t)); diff != "" {
				t.Errorf("the listings with GOFLAGS=%s (-without +with):\n%s", flag, diff)
			}
		})
	}
	for _, goflags := range []string{"", "-race"} {
		t.Run("audit GOFLAGS="+goflags, func(t *testing.T) {
			t.Setenv("GOFLAGS", goflags)
			rep, err := AnalyzeAll(ctx, dir, []Platform{{runtime.GOOS, runtime.GOARCH}}, []string{"Tool"})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := rep.Tools["Tool"].Reaches, tool.Exec; got != want || len(rep.Unaudited) > 0 {
				t.Errorf("the probe reaches %s, want %s (its file for -race); not audited: %q", got, want, rep.Unaudited)
			}
		})
	}
}

// TestInstrumentedDependency checks that a file for -race in a package of
// another module (here one replaced by a directory) is audited: the audit
// had taken build tags only from the main module's files, and a program
// built with -race ran what it never saw. The file may be for another
// platform than the host (race && darwin) and be reached only through a
// file of the main module's for a tag of its own. The probe runs its
// program with syscall.Exec, not os/exec: the standard library that each
// case lists for its tag, compiled once with an empty build cache, is
// the smaller.
func TestInstrumentedDependency(t *testing.T) {
	t.Parallel()
	other := Platform{"darwin", "amd64"}
	if runtime.GOOS == "darwin" {
		other = Platform{"linux", "amd64"}
	}
	for _, c := range []struct {
		name, constraint, tool string
		platforms              []Platform
	}{
		{"race", "race", "import \"example.com/x\"\n\nfunc run(ctx context.Context) string { return x.Run(ctx) }\n", nil},
		{"race on another platform", "race && " + other.GOOS, "import \"example.com/x\"\n\nfunc run(ctx context.Context) string { return x.Run(ctx) }\n", []Platform{other}},
		{"race under a tag", "race", "func run(ctx context.Context) string { return \"\" }\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files := map[string]string{
				"go.mod":       "module example.com/tools\n\ngo 1.26\n\nrequire example.com/x v0.0.0\n\nreplace example.com/x => ./x\n",
				"tool/tool.go": "package tool\n\nimport \"context\"\n\n// Tool is the probe.\ntype Tool struct{}\n\n// Args are empty.\ntype Args struct{}\n\n// Execute calls run.\nfunc (Tool) Execute(ctx context.Context, args Args) (string, error) { return run(ctx), nil }\n",
				"tool/run.go":  "package tool\n\nimport \"context\"\n\n" + c.tool,
				"x/go.mod":     "module example.com/x\n\ngo 1.26\n",
				"x/plain.go":   "//go:build !(" + c.constraint + ")\n\npackage x\n\nimport \"context\"\n\n// Run runs nothing.\nfunc Run(ctx context.Context) string { return \"\" }\n",
				"x/race.go":    "//go:build " + c.constraint + "\n\npackage x\n\nimport (\n\t\"context\"\n\t\"syscall\"\n)\n\n// Run runs a program in place of the process.\nfunc Run(ctx context.Context) string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n",
			}
			if c.platforms == nil {
				// runtime.RaceDisable is the race build's alone: the standard
				// library's types are the tag's too. (On another platform its
				// race runtime's code differs.)
				files["x/race.go"] = strings.Replace(files["x/race.go"], "\t\"syscall\"\n)", "\t\"runtime\"\n\t\"syscall\"\n)", 1)
				files["x/race.go"] = strings.Replace(files["x/race.go"], "string {\n", "string {\n\truntime.RaceDisable()\n\tdefer runtime.RaceEnable()\n", 1)
			}
			if c.name == "race under a tag" {
				files["tool/run.go"] = "//go:build !audittag\n\npackage tool\n\nimport \"context\"\n\n" + c.tool
				files["tool/run_tag.go"] = "//go:build audittag\n\npackage tool\n\nimport (\n\t\"context\"\n\n\t\"example.com/x\"\n)\n\nfunc run(ctx context.Context) string { return x.Run(ctx) }\n"
			}
			writeFiles(t, dir, files)
			platforms := append([]Platform{{runtime.GOOS, runtime.GOARCH}}, c.platforms...)
			rep, err := AnalyzeAll(context.Background(), filepath.Join(dir, "tool"), platforms, []string{"Tool"})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := rep.Tools["Tool"].Reaches, tool.Exec; got != want {
				t.Errorf("the probe reaches %s, want %s (x's file for %s); not audited: %q", got, want, c.constraint, rep.Unaudited)
			}
		})
	}
}

// TestInstrumentsFromEveryModule checks which packages' build constraints
// give the instrumented configurations: every package outside the standard
// library's, the main module's and others', but the genuine golang.org/x
// modules', whose files for -race only tell the race detector of their
// system calls.
// The main module's other tags are its own.
func TestInstrumentsFromEveryModule(t *testing.T) {
	t.Parallel()
	tagsOf := map[string][]string{
		"/m/a.go": {"race", "mytag"}, "/dep/b.go": {"msan", "deptag"},
		"/xsys/c.go": {"asan"}, "/fake/d.go": {"race"},
	}
	for _, c := range []struct {
		name      string
		pkgs      []*listedPackage
		tags, ins []string
	}{
		{"main", []*listedPackage{{ImportPath: "m", GoFiles: []string{"/m/a.go"}, Module: &Module{Path: "m", Main: true}}}, []string{"mytag"}, []string{"race"}},
		{"another module", []*listedPackage{{ImportPath: "dep", IgnoredGoFiles: []string{"/dep/b.go"}, Module: &Module{Path: "dep", Version: "v1.0.0"}}}, nil, []string{"msan"}},
		{"genuine x/sys", []*listedPackage{{ImportPath: "golang.org/x/sys/unix", Dir: "/xsys", IgnoredGoFiles: []string{"/xsys/c.go"}, Module: &Module{Path: "golang.org/x/sys", Version: "v0.40.0"}}}, nil, nil},
		{"genuine x/net", []*listedPackage{{ImportPath: "golang.org/x/net/internal/socket", Dir: "/xsys", IgnoredGoFiles: []string{"/xsys/c.go"}, Module: &Module{Path: "golang.org/x/net", Version: "v0.40.0"}}}, nil, nil},
		{"x/sys replaced", []*listedPackage{{ImportPath: "golang.org/x/sys/unix", Dir: "/fake", IgnoredGoFiles: []string{"/fake/d.go"}, Module: &Module{Path: "golang.org/x/sys", Version: "v0.40.0", Replace: &Module{Path: "../fake"}}}}, nil, []string{"race"}},
	} {
		l := &listing{pkgs: c.pkgs}
		if err := l.finish(func(file string) ([]string, error) { return tagsOf[file], nil }); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][]string{c.tags, c.ins}, [][]string{l.tags, l.instruments}); diff != "" {
			t.Errorf("%s: the tags and instrumentations (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestIrregularFile checks that a file of a package outside the standard
// library that is not a regular file stops the load with an error naming
// it: a symbolic link (which git keeps) to a device, which the audit read
// (a link to /dev/zero, which the go command ignored on the host by its
// name, until it ran out of memory; here /dev/null, which reads as empty,
// so that the audit without the check loads the program), or to nothing
// (whose target, where git makes no links, is the file's Go source).
// newListing's check and fileTags's read each refuse both, so that the
// test fails only without the two.
func TestIrregularFile(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(os.DevNull); err != nil || runtime.GOOS == "windows" {
		t.Skip("no /dev/null to link to")
	}
	other := "plan9"
	if runtime.GOOS == other {
		other = "linux"
	}
	for _, c := range []struct{ name, target, want string }{
		{"device", os.DevNull, " is not a regular file"},
		{"dangling", "package helper\n\nfunc init() {}\n", "no such file or directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"go.mod":           "module example.com/irregular\n\ngo 1.26\n",
				"tool/tool.go":     "package tool\n\nimport \"example.com/irregular/helper\"\n\nvar X = helper.X\n",
				"helper/helper.go": "package helper\n\nvar X = 1\n",
			})
			link := filepath.Join(dir, "helper", "link_"+other+".go")
			if err := os.Symlink(c.target, link); err != nil {
				t.Fatal(err)
			}
			_, err := Load(context.Background(), filepath.Join(dir, "tool"), []Platform{{runtime.GOOS, runtime.GOARCH}})
			if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Load: error %v, want one naming %s: %q", err, link, c.want)
			}
		})
	}
}

// TestFileTagsHeader checks that fileTags reads the start of a file
// (maxHeader) and no more: a file larger than that gives its tags, and
// one whose package clause lies past it is an error, not a file without
// tags. What follows the clause does not count: a comment after it that
// runs past the bound was taken for a missing clause.
func TestFileTagsHeader(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const head, clause = "//go:build mytag\n\n", "package p\n"
	// comment is a comment line that makes head, it and clause n bytes.
	comment := func(n int) string { return "//" + strings.Repeat("x", n-len(head)-len(clause)-3) + "\n" }
	for _, c := range []struct {
		name, src string
		tags      []string
		err       bool
	}{
		{"short", head + clause, []string{"mytag"}, false},
		{"large", head + clause + strings.Repeat("// filler\n", maxHeader/5), []string{"mytag"}, false},
		{"the clause ends at the bound", head + comment(maxHeader) + clause, []string{"mytag"}, false},
		{"only its newline past it", head + comment(maxHeader+1) + clause, []string{"mytag"}, false},
		{"the clause begins at the bound", head + comment(maxHeader+len(clause)) + clause, nil, true},
		{"its keyword cut by the bound", head + comment(maxHeader+len(clause)-4) + clause, nil, true},
		// Nothing after the package name is scanned: the rest of a file
		// may be anything, as long as its clause is read whole.
		{"a comment after the clause past the bound", head + clause + "/*" + strings.Repeat("x", maxHeader) + "*/\n", []string{"mytag"}, false},
		{"a string after the clause past the bound", head + clause + "var s = `" + strings.Repeat("x", maxHeader) + "`\n", []string{"mytag"}, false},
		{"a file that does not scan before its clause", head + "/* \x00 */\n" + clause, nil, false},
		// The clause as the go command builds it, however it is spelled.
		{"a comment inside the clause", head + "package/* x */p\n", []string{"mytag"}, false},
		{"a line comment inside the clause", head + "package // x\np\n", []string{"mytag"}, false},
		{"a comment inside the clause, the file past the bound", head + "package /* generated */ p\n\nvar s = `" + strings.Repeat("x", maxHeader) + "`\n", []string{"mytag"}, false},
		// The go command reads a constraint line as it is; go/scanner
		// drops a comment's '\r'.
		{"a carriage return after the go:build of its line", "//go:build\rmytag\n\n" + clause, []string{"mytag"}, false},
		{"a carriage return after the +build of its line", "// +build\rmytag\n\n" + clause, []string{"mytag"}, false},
		{"no package clause", head + "func f() {}\n", nil, false},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".go")
		if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		tags, err := fileTags(file)
		if (err != nil) != c.err || !slices.Equal(tags, c.tags) {
			t.Errorf("%s (%d bytes): tags %q, error %v; want %q, an error: %v", c.name, len(c.src), tags, err, c.tags, c.err)
		}
	}
}

// probeTool is the tool package's file of the tests' probes: Execute
// calls run, which the probe's other files define.
const probeTool = "package tool\n\nimport \"context\"\n\n// Tool is the probe.\ntype Tool struct{}\n\n// Args are empty.\ntype Args struct{}\n\n// Execute calls run.\nfunc (Tool) Execute(ctx context.Context, args Args) (string, error) { return run(), nil }\n"

// probeModule returns files with the module's go.mod and the probe's tool
// file (probeTool) added.
func probeModule(files map[string]string) map[string]string {
	out := map[string]string{"go.mod": "module example.com/tools\n\ngo 1.26\n", "tool/tool.go": probeTool}
	maps.Copy(out, files)
	return out
}

// hostReaches writes files, go.mod and the tool package in tool/ among
// them, into a new directory, and returns what its Tool reaches in the
// audit of the host's configurations.
func hostReaches(t *testing.T, files map[string]string) tool.Capability {
	t.Helper()
	return platformsReach(t, files, []Platform{{runtime.GOOS, runtime.GOARCH}})
}

// platformsReach is hostReaches for the configurations of platforms.
func platformsReach(t *testing.T, files map[string]string, platforms []Platform) tool.Capability {
	t.Helper()
	rep, err := analyzeFiles(t, files, platforms)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Tools["Tool"].Reaches
}

// analyzeFiles writes files, go.mod and the tool package in tool/ among
// them, into a new directory, and audits its Tool in the configurations
// of platforms.
func analyzeFiles(t *testing.T, files map[string]string, platforms []Platform) (*Report, error) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	return AnalyzeAll(context.Background(), filepath.Join(dir, "tool"), platforms, []string{"Tool"})
}

// TestConstraintSpellings checks that a file for a tag of the tool's
// module is audited however its constraint and package clause are spelled
// where the go command builds it: "//go:build\raudittag" (go/scanner
// drops the '\r' from a comment's text, and fileTags and the deriver read
// no constraint) and "package/**/tool" (fileTags took a comment after the
// keyword for no clause), in both of the files that name the tag. Each
// case reached nothing before its fix (both found in review). The deriver's reading of the same line has a test of its
// own (TestDeriverRawConstraint), since the configurations here are listed
// by the go command.
func TestConstraintSpellings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, plain, tagged, clause string }{
		{"a carriage return", "//go:build\r!audittag", "//go:build\raudittag", "package tool"},
		{"a comment in the clause", "//go:build !audittag", "//go:build audittag", "package/**/tool"},
		// Tags the go command sets with -tags, and builds, that the audit
		// took for the toolchain's own (found in review).
		{"nacl", "//go:build !nacl", "//go:build nacl", "package tool"},
		{"android", "//go:build !android", "//go:build android", "package tool"},
		{"gccgo", "//go:build !gccgo", "//go:build gccgo", "package tool"},
		{"a GOEXPERIMENT", "//go:build !goexperiment.auditzzz", "//go:build goexperiment.auditzzz", "package tool"},
		{"boringcrypto, go/build's goexperiment.boringcrypto", "//go:build !boringcrypto", "//go:build boringcrypto", "package tool"},
		{"a release spelled wrong", "//go:build !go1.foo", "//go:build go1.foo", "package tool"},
		{"go1.0, no release", "//go:build !go1.0", "//go:build go1.0", "package tool"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{
				"go.mod":          "module example.com/tools\n\ngo 1.26\n",
				"tool/tool.go":    probeTool,
				"tool/run.go":     c.plain + "\n\n" + c.clause + "\n\nfunc run() string { return \"\" }\n",
				"tool/run_tag.go": c.tagged + "\n\n" + c.clause + "\n\nimport \"syscall\"\n\nfunc run() string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n",
			}
			if got, want := hostReaches(t, files), tool.Exec; got != want {
				t.Errorf("the probe reaches %s, want %s (its file %q)", got, want, c.tagged)
			}
		})
	}
}

// TestCgoTagWithoutCgo checks that a file for cgo is audited in the
// build that CGO_ENABLED=0 go build -tags cgo makes, which compiles it
// without the files that import "C": the audit took cgo for the
// toolchain's own tag, and its configuration with cgo, which a file that
// imports "C" and a package that is not there keeps from loading, was
// skipped as one the program does not build in (a review's probe).
// Without the configuration without cgo and with the tag, the probe
// reaches nothing.
func TestCgoTagWithoutCgo(t *testing.T) {
	t.Parallel()
	files := probeModule(map[string]string{
		"tool/a_cgo.go": "package tool\n\nimport \"C\"\n\nimport _ \"example.com/tools/missing\"\n",
		"tool/b.go":     "//go:build cgo" + execRun,
		"tool/c.go":     "//go:build !cgo" + plainRun,
	})
	if got, want := hostReaches(t, files), tool.Exec; got != want {
		t.Errorf("the probe reaches %s, want %s (b.go, for cgo, built without it)", got, want)
	}
}

// TestHonestTaggedFiles checks that the tags the audit makes
// configurations for since 0b6c18f fail no honest module: a file for
// goexperiment.jsonv2 that uses encoding/json/v2 (the standard library's
// types listed with the tag: exportFlags), and files named for
// linux/amd64 and linux/sparc64 that declare the same constant, as a copy
// of x/sys/unix does (-tags sparc64 breaks the standard library, so it is
// the toolchain's tag, and makes no configuration). Both failed the audit
// (found in review).
func TestHonestTaggedFiles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		files map[string]string
		long  bool // lists and builds with cgo more than once (5 s of CPU)
	}{
		{"jsonv2", map[string]string{
			"tool/run.go":    "//go:build !goexperiment.jsonv2\n\npackage tool\n\nfunc run() string { return \"\" }\n",
			"tool/run_v2.go": "//go:build goexperiment.jsonv2\n\npackage tool\n\nimport \"encoding/json/v2\"\n\nfunc run() string {\n\tb, _ := json.Marshal(1)\n\treturn string(b)\n}\n",
		}, false},
		{"word sizes", map[string]string{
			"tool/run.go":                "package tool\n\nimport \"strconv\"\n\nfunc run() string { return strconv.Itoa(wordSize) }\n",
			"tool/word_linux_amd64.go":   "package tool\n\nconst wordSize = 8\n",
			"tool/word_linux_sparc64.go": "package tool\n\nconst wordSize = 8\n",
		}, false},
		// Two files with cgo for tags the module takes one at a time,
		// each exporting one C name: cgo fails for the combination of
		// both, which no build has (found in review of f9d6667, whose
		// audit failed on it when the go command listed every
		// configuration: !audit.x, which the deriver cannot evaluate).
		{"exclusive tags with cgo", map[string]string{
			"tool/run.go": "package tool\n\nfunc run() string { return \"\" }\n",
			"tool/a.go":   "//go:build audita\n\npackage tool\n\nimport \"C\"\n\n//export toolreg_mode\nfunc toolreg_mode() C.int { return 1 }\n",
			"tool/b.go":   "//go:build auditb\n\npackage tool\n\nimport \"C\"\n\n//export toolreg_mode\nfunc toolreg_mode() C.int { return 2 }\n",
			"tool/x.go":   "//go:build !audit.x\n\npackage tool\n",
		}, true},
		// Two tags the module takes one at a time, each with a file that
		// declares the same name, beside a file with cgo: the combination
		// of both does not type-check, and does not build (found in
		// review of 860b980, whose audit failed on it).
		{"exclusive tags", map[string]string{
			"tool/run.go":  "package tool\n\nfunc run() string { return mode }\n",
			"tool/a.go":    "//go:build audita\n\npackage tool\n\nconst mode = \"a\"\n",
			"tool/b.go":    "//go:build auditb\n\npackage tool\n\nconst mode = \"b\"\n",
			"tool/none.go": "//go:build !audita && !auditb\n\npackage tool\n\nconst mode = \"\"\n",
			"tool/c.go":    "package tool\n\n// int f(void) { return 0; }\nimport \"C\"\n\nvar _ = C.f\n",
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long case, which the full test command runs")
			}
			t.Parallel()
			files := probeModule(c.files)
			if got := hostReaches(t, files); got != 0 {
				t.Errorf("the honest tool reaches %s, want nothing", got)
			}
		})
	}
}

// TestCgoTagInDependency checks that the build CGO_ENABLED=0 go build
// -tags cgo makes is audited though only a dependency names cgo: its file
// for cgo replaces the tool's hook, and the configuration with cgo does
// not load (the tool's file imports "C" and a package that is not there).
// Without the configuration, which 3179715 made only for a tag of the
// tool's module, the probe reaches nothing (found in review).
func TestCgoTagInDependency(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"go.mod":        "module example.com/tools\n\ngo 1.26\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
		"tool/tool.go":  "package tool\n\nimport (\n\t\"context\"\n\n\t\"example.com/dep\"\n)\n\n// Tool is the probe.\ntype Tool struct{}\n\n// Args are empty.\ntype Args struct{}\n\n// Execute calls the hook.\nfunc (Tool) Execute(ctx context.Context, args Args) (string, error) {\n\tdep.Hook()\n\treturn \"\", nil\n}\n",
		"tool/a_cgo.go": "package tool\n\nimport \"C\"\n\nimport _ \"example.com/tools/missing\"\n",
		"dep/go.mod":    "module example.com/dep\n\ngo 1.26\n",
		"dep/dep.go":    "package dep\n\n// Hook does nothing.\nvar Hook = func() {}\n",
		"dep/b.go":      "//go:build cgo\n\npackage dep\n\nimport \"syscall\"\n\nfunc init() {\n\tHook = func() { _ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil) }\n}\n",
	}
	if got, want := hostReaches(t, files), tool.Exec; got != want {
		t.Errorf("the probe reaches %s, want %s (dep/b.go, for cgo, built without it)", got, want)
	}
}

// TestUnlistedConfigurationFails checks that a configuration the audit
// cannot list, here for a dangling link the go command ignores by its name
// in a package only the tagged configuration imports, fails the audit:
// its listing's error was reported only where no configuration was
// audited, so the tagged file went unaudited (found in review).
func TestUnlistedConfigurationFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":          "module example.com/tools\n\ngo 1.26\n",
		"tool/tool.go":    probeTool,
		"tool/run.go":     "//go:build !audittag\n\npackage tool\n\nfunc run() string { return \"\" }\n",
		"tool/run_tag.go": "//go:build audittag\n\npackage tool\n\nimport \"example.com/tools/evil\"\n\nfunc run() string { return evil.Run() }\n",
		"evil/evil.go":    "package evil\n\nimport \"syscall\"\n\n// Run runs a program.\nfunc Run() string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n",
	})
	other := "windows"
	if runtime.GOOS == other {
		other = "linux"
	}
	link := filepath.Join(dir, "evil", "zz_"+other+".go")
	if err := os.Symlink("does-not-exist.go", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	rep, err := AnalyzeAll(context.Background(), filepath.Join(dir, "tool"), []Platform{{runtime.GOOS, runtime.GOARCH}}, []string{"Tool"})
	if err == nil {
		t.Fatalf("AnalyzeAll audited the program (the probe reaches %s), want an error naming %s", rep.Tools["Tool"].Reaches, link)
	}
	if !strings.Contains(err.Error(), link) {
		t.Errorf("AnalyzeAll: %v, want an error naming %s", err, link)
	}
}

// TestNonPortFileName checks that a file named for an operating system or
// architecture of byTags (run_nacl.go), which -tags nacl builds, is
// audited: its tag comes from its name alone. Without nameTags the probe
// reaches nothing.
func TestNonPortFileName(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"run_nacl.go", "run_linux_amd64p32.go", "run_android.go", "run_nacl_test.go"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := "package tool\n\nimport \"syscall\"\n\nfunc init() {\n\thook = func() { _ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil) }\n}\n"
			want := tool.Exec
			if strings.HasSuffix(name, "_test.go") {
				// A test file is no part of the program: nothing to reach.
				src = strings.Replace(src, "package tool", "package tool_test", 1)
				want = 0
			}
			got := hostReaches(t, map[string]string{
				"go.mod":       "module example.com/tools\n\ngo 1.26\n",
				"tool/tool.go": "package tool\n\nimport \"context\"\n\nvar hook = func() {}\n\n// Tool is the probe.\ntype Tool struct{}\n\n// Args are empty.\ntype Args struct{}\n\n// Execute calls hook.\nfunc (Tool) Execute(ctx context.Context, args Args) (string, error) {\n\thook()\n\treturn \"\", nil\n}\n",
				"tool/" + name: src,
			})
			if got != want {
				t.Errorf("the probe reaches %s, want %s (%s, built with -tags)", got, want, name)
			}
		})
	}
}

// TestNameTags checks which names of a file give it a tag: those of
// byTags that go/build matches in the name, as goodOSArchFile reads it.
func TestNameTags(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][]string{
		"x.go":                nil,
		"nacl.go":             nil, // the first part is the file's own name
		"x_nacl.go":           {"nacl"},
		"x_nacl_test.go":      {"nacl"},
		"x_android.go":        {"android"},
		"x_linux_amd64p32.go": {"amd64p32"},
		"x_nacl_amd64p32.go":  {"nacl", "amd64p32"},
		"x_android_arm64.go":  {"android"},
		"x_linux.go":          nil,
		"x_linux_sparc64.go":  nil, // -tags sparc64 breaks the standard library
		"x_amd64p32_linux.go": nil, // go/build matches linux alone
		"x_nacl_foo.go":       nil,
		"dir/x_nacl.go":       {"nacl"},
		"x_nacl.go.txt":       {"nacl"},
		"x_nacl_test_test.go": nil,
	} {
		if got := nameTags(name); !slices.Equal(got, want) {
			t.Errorf("nameTags(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestDeriverRawConstraint checks that the deriver reads a file's
// constraint as the go command does, with a '\r' after //go:build, which
// go/scanner drops from the comment's text: the tag is the file's, and
// the file is constrained (one that is not is matched by its name alone).
func TestDeriverRawConstraint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		name, src string
		tags      []string
	}{
		{"go:build", "//go:build\rmytag\n\npackage p\n", []string{"mytag"}},
		{"+build", "// +build\rmytag\n\npackage p\n", []string{"mytag"}},
		{"a block comment before", "/* \r */\n//go:build mytag\n\npackage p\n", []string{"mytag"}},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".go")
		if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		d := &deriver{files: map[string]*fileFacts{}}
		f := d.facts(file)
		if f.err != nil || !f.constrained || !slices.Equal(f.tags, c.tags) {
			t.Errorf("%s: tags %q, constrained %v, error %v; want %q, constrained", c.name, f.tags, f.constrained, f.err, c.tags)
		}
	}
}

// TestDeriverImportsPastHeader checks that the deriver, which reads a
// file's first MiB, refuses a file whose imports may go on past it (an
// import after a MiB of blank lines was dropped, and a configuration
// derived without it failed to type-check, found in review), and takes
// one whose imports end in it however long it is.
func TestDeriverImportsPastHeader(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const head = "package p\n\nimport \"context\"\n"
	for _, c := range []struct {
		name, src string
		imports   []string
		err       bool
	}{
		{"short", head + "\nvar _ = context.TODO\n", []string{"context"}, false},
		{"a declaration before the bound", head + "\nvar s = `" + strings.Repeat("x", maxHeader) + "`\n", []string{"context"}, false},
		{"blank lines past the bound, then an import", head + strings.Repeat("\n", maxHeader) + "import \"os/exec\"\n", nil, true},
		{"blank lines up to the bound", head + strings.Repeat("\n", maxHeader-len(head)-len("var v int\n")) + "var v int\n", []string{"context"}, false},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".go")
		if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		f := (&deriver{files: map[string]*fileFacts{}}).facts(file)
		if (f.err != nil) != c.err || !slices.Equal(f.imports, c.imports) {
			t.Errorf("%s (%d bytes): imports %q, error %v; want %q, an error: %v", c.name, len(c.src), f.imports, f.err, c.imports, c.err)
		}
	}
}

// TestInstrumentedEdges checks three cases of the instrumentations the
// review of 5204252 found untested: a file for -asan reached only from a
// file for -race (a second round of instrument); a dependency's file for
// race on the host, with a tag of the tool's module, charged to no other
// platform (the platform filter of Analyze: a -platforms without the host
// reached exec); and a file for -msan whose cgo needs a header this host
// lacks, a note and not a failure (an honest module stopped toolgen).
// The probes run their program with syscall.Exec, as
// TestInstrumentedDependency's.
func TestInstrumentedEdges(t *testing.T) {
	t.Parallel()
	host := Platform{runtime.GOOS, runtime.GOARCH}
	other := Platform{"windows", "amd64"}
	if host == other {
		other = Platform{"linux", "amd64"}
	}
	const toolSrc = "package tool\n\nimport (\n\t\"context\"\n\n\t\"example.com/x\"\n)\n\n// Tool is the probe.\ntype Tool struct{}\n\n// Args are empty.\ntype Args struct{}\n\n// Execute calls x.\nfunc (Tool) Execute(ctx context.Context, args Args) (string, error) { return x.Run(ctx), nil }\n"
	const plain = "package x\n\nimport \"context\"\n\n// Run runs nothing.\nfunc Run(ctx context.Context) string { return \"\" }\n"
	const runs = "import (\n\t\"context\"\n\t\"syscall\"\n)\n\n// Run runs a program in place of the process.\nfunc Run(ctx context.Context) string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n"
	for _, c := range []struct {
		name          string
		files         map[string]string
		load, analyze []Platform
		reaches       tool.Capability
		unaudited     string
		long          bool // lists and loads with -asan or -msan (about 1 s of CPU each)
	}{
		{"asan through race", map[string]string{
			"x/plain.go":   "//go:build !race\n\n" + plain,
			"x/race.go":    "//go:build race\n\npackage x\n\nimport (\n\t\"context\"\n\n\t\"example.com/x/y\"\n)\n\n// Run calls y.\nfunc Run(ctx context.Context) string { return y.Run(ctx) }\n",
			"x/y/plain.go": "//go:build !asan\n\npackage y\n\nimport \"context\"\n\n// Run runs nothing.\nfunc Run(ctx context.Context) string { return \"\" }\n",
			"x/y/asan.go":  "//go:build asan\n\npackage y\n\n" + runs,
		}, []Platform{host}, []Platform{host}, tool.Exec, "", true},
		{"race on the host, another platform audited", map[string]string{
			"tool/tag.go": "//go:build mytag\n\npackage tool\n",
			"x/plain.go":  "//go:build !(race && " + host.GOOS + ")\n\n" + plain,
			"x/race.go":   "//go:build race && " + host.GOOS + "\n\npackage x\n\n" + runs,
		}, []Platform{host, other}, []Platform{other}, 0, "", false},
		{"msan that needs clang", map[string]string{
			"x/plain.go": "//go:build !msan\n\n" + plain,
			"x/msan.go":  "//go:build msan\n\npackage x\n\n// #include <toolreg_no_such_header.h>\nimport \"C\"\n\n" + strings.Replace(runs, "import (", "import (\n\t_ \"unsafe\"", 1),
		}, []Platform{host}, []Platform{host}, 0, " -tags msan (", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long case, which the full test command runs")
			}
			t.Parallel()
			dir := t.TempDir()
			files := map[string]string{
				"go.mod":       "module example.com/tools\n\ngo 1.26\n\nrequire example.com/x v0.0.0\n\nreplace example.com/x => ./x\n",
				"tool/tool.go": toolSrc,
				"x/go.mod":     "module example.com/x\n\ngo 1.26\n",
			}
			for name, src := range c.files {
				files[name] = src
			}
			writeFiles(t, dir, files)
			ps, err := Load(context.Background(), filepath.Join(dir, "tool"), c.load)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ps.Analyze(context.Background(), c.analyze, []string{"Tool"})
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Tools["Tool"].Reaches; got != c.reaches {
				t.Errorf("the probe reaches %s, want %s; not audited: %q", got, c.reaches, rep.Unaudited)
			}
			if got := strings.Join(rep.Unaudited, "; "); c.unaudited == "" && got != "" || !strings.Contains(got, c.unaudited) {
				t.Errorf("not audited: %q, want %q", got, c.unaudited)
			}
		})
	}
}

// TestImportsEnd checks where ImportsEnd sees a file's imports end.
func TestImportsEnd(t *testing.T) {
	for src, want := range map[string]bool{
		"package p\n\nimport \"C\"\n\nfunc f() {}\n":                     true,
		"package p\n\nimport (\n\t\"fmt\"\n\tx \"os\"\n)\n\nvar v int\n": true,
		"package p\n\nimport . \"fmt\"\nimport _ \"C\"\ntype T int\n":    true,
		"package p\n\nconst c = 1\n":                                     true,
		"package p\n\nimport \"C\"\n":                                    false,
		"package p\n\nimport (\n\t\"fmt\"\n":                             false,
		"package p\n\n// a comment cut sh":                               false,
		"package p\n\nimport \"unterminated":                             false,
		"// no package clause\n":                                         false,
		// A comment cut in two after its first "/", not a division.
		"package p\nimport \"fmt\"\n/":      false,
		"package p\nimport (\n\t\"fmt\"\n/": false,
		"package p\n\n/":                    false,
		// A character cut in two.
		"package p\nimport \"fmt\"\n\xe2\x82": false,
	} {
		if got := ImportsEnd([]byte(src)); got != want {
			t.Errorf("ImportsEnd(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestReadAtMost checks readAtMost with sizes that are right, too small
// (a file of /proc says it is empty) and too large (a file that shrank
// since its Stat), each at, below and past its bound: what it reads is
// the file to its end or one byte past the bound, never more.
func TestReadAtMost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := make([]byte, 3000)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	for _, n := range []int{0, 1, 511, 512, 513, 3000} {
		file := filepath.Join(dir, fmt.Sprint(n))
		if err := os.WriteFile(file, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		for _, size := range []int64{0, 1, 4, int64(n) / 2, int64(n) - 1, int64(n), int64(n) + 1, 1 << 20} {
			for _, limit := range []int64{0, 5, 10, int64(n) - 1, int64(n), int64(n) + 1, 1 << 30} {
				if limit < 0 || size < 0 {
					continue
				}
				f, err := os.Open(file)
				if err != nil {
					t.Fatal(err)
				}
				got, err := readAtMost(f, size, limit)
				f.Close()
				want := data[:min(int64(n), limit+1)]
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%d bytes, size %d, bound %d: %d bytes read (%v), want the first %d", n, size, limit, len(got), err, len(want))
				}
				if c := int64(cap(got)); c > 2*(max(int64(n), min(size, limit))+512) {
					t.Errorf("%d bytes, size %d, bound %d: a buffer of %d bytes", n, size, limit, c)
				}
			}
		}
	}
}

// TestReadAtMostAllocations checks what readAtMost allocates: one buffer
// when the file's size is right; when it says the file is empty (as a
// file of /proc does), a number of allocations that grows with the log
// of what it gives, not with its length; and, for a file cut short since
// its Stat, a buffer of what it holds, not of what it said.
func TestReadAtMostAllocations(t *testing.T) {
	dir := t.TempDir()
	const n = 4 << 20
	file := filepath.Join(dir, "big")
	if err := os.WriteFile(file, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		size, limit int64
		max         float64
	}{
		{n, maxSource, 1},
		// io.ReadAll's chunks: about 30 allocations here, twice as many
		// under the race detector; a buffer grown 512 bytes at a time
		// would take 8,192.
		{0, maxSource, 200},
		{n, maxHeader, 1},
	} {
		allocs := testing.AllocsPerRun(5, func() {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			got, err := readAtMost(f, c.size, c.limit)
			if want := min(n, c.limit+1); err != nil || int64(len(got)) != want {
				t.Fatalf("size %d, bound %d: %d bytes read (%v), want %d", c.size, c.limit, len(got), err, want)
			}
		})
		if allocs > c.max {
			t.Errorf("a file of %d bytes, its size given as %d, read to a bound of %d: %v allocations, want at most %v", n, c.size, c.limit, allocs, c.max)
		}
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := os.Open(small)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	got, err := readAtMost(g, n, maxSource)
	if err != nil || string(got) != "package p\n" || cap(got) > 4096 {
		t.Errorf("a file of 10 bytes said to be %d: %q (%v), a buffer of %d bytes; want its 10 bytes in a buffer of at most 4096", n, got, err, cap(got))
	}
}

// BenchmarkReadRegular reads the Go files of net/http, as the audit reads
// the standard library's sources to key their types (typesKeys) and a
// program's to parse them.
func BenchmarkReadRegular(b *testing.B) {
	files, err := filepath.Glob(filepath.Join(build.Default.GOROOT, "src", "net", "http", "*.go"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no Go files of net/http: %v", err)
	}
	var size int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += fi.Size()
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := ReadRegular(f); err != nil {
				b.Fatal(err)
			}
		}
	}
}
