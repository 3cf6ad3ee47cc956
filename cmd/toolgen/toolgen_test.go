package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/buildcache"
	"github.com/toolreg/toolreg/internal/strictrules"
	"github.com/toolreg/toolreg/internal/toolcheck"
	"github.com/toolreg/toolreg/jsonarg"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// mod is the test module; see testdata/mod/README.md for its layout.
func mod(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "mod"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

func warningLines(ws []diagnostic) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}

func toolNames(ts []*toolInfo) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// TestGolden generates the registries of the test module's cases and
// compares each with its committed zz_registry_gen.go: good uses every
// feature of the convention, found holds the cases the invariant test and
// the issue reports found, cgo calls C from a helper file.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dir   string
		tools []string
	}{
		{"good", []string{"echo", "find"}},
		{"found", []string{"anyres", "bytes", "dashkey", "entries", "hits", "ints", "invokeentries", "keys", "obj", "strs", "temp", "took", "uuid", "when", "where"}},
		{"cgo", []string{"pid"}},
		{"types", []string{"list", "match", "menu", "outline", "remind", "tag", "wait"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join(mod(t), tc.dir)
			res, err := generated(t, tc.dir) // found and cgo: TestWarnings reads them too
			if err != nil {
				t.Fatal(err)
			}
			if tc.dir == "good" && len(res.Warnings) > 0 {
				t.Errorf("unexpected warnings:\n%s", strings.Join(warningLines(res.Warnings), "\n"))
			}
			golden := filepath.Join(base, "zz_registry_gen.go")
			if *update {
				if err := os.WriteFile(golden, res.Source, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(res.Source)); diff != "" {
				t.Errorf("generated registry differs from %s (-want +got):\n%s", golden, diff)
			}
			if !bytes.HasPrefix(res.Source, []byte("// "+header+"\n")) {
				t.Errorf("generated file does not start with the header %q", header)
			}
			if diff := cmp.Diff(tc.tools, toolNames(res.Tools)); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			checkStrictRules(t, res.Tools)
		})
	}
}

// checkStrictRules checks the strict schema of each tool against the
// documented rules of strict function calling (package strictrules), and
// checks that its plain schema, which has optional fields, does not pass
// them when it has an optional field: the check can fail.
func checkStrictRules(t *testing.T, tools []*toolInfo) {
	t.Helper()
	for _, tl := range tools {
		if !toolcheck.Strictable(tl.Args) {
			if s := strictSchemaJSON(tl.Args); s != "" {
				t.Errorf("%s: arguments strict mode cannot state have a strict schema: %s", tl.Name, s)
			}
			continue
		}
		if problems := strictrules.Check(strictSchemaJSON(tl.Args)); len(problems) > 0 {
			t.Errorf("%s: the strict schema breaks strict mode's rules:\n%s", tl.Name, strings.Join(problems, "\n"))
		}
		optional := slices.ContainsFunc(tl.Args.Fields, func(f *toolcheck.Field) bool { return !f.Required })
		if problems := strictrules.Check(schemaJSON(tl.Args)); optional && len(problems) == 0 {
			t.Errorf("%s: the plain schema, with optional fields, passes strict mode's rules", tl.Name)
		}
	}
}

// TestGoldenBuilds builds the golden registries with the go command.
func TestGoldenBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build; skipped with -short")
	}
	t.Parallel()
	dir, flags := buildModule(t)
	pkgs := []string{"./good/...", "./found/...", "./types/..."}
	if _, err := exec.LookPath("gcc"); err == nil {
		pkgs = append(pkgs, "./cgo/...")
	} else {
		t.Log("no gcc: the cgo case is not built")
	}
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// TestWarnings checks tool packages that break the convention: every
// violation is reported with its position, and the tools of the good files
// are still generated. bad breaks it once per file; found and cgo hold the
// cases found since.
func TestWarnings(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"bad", "found", "cgo", "traps"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join(mod(t), dir)
			res, err := generated(t, dir)
			if err != nil {
				t.Fatal(err)
			}
			wantFile := filepath.Join(base, "want_warnings.txt")
			got := warningLines(res.Warnings)
			toolsFile := filepath.Join(base, "want_tools.txt")
			if *update {
				if err := os.WriteFile(wantFile, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(toolsFile, []byte(strings.Join(toolNames(res.Tools), "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(readLines(t, wantFile), got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(readLines(t, toolsFile), toolNames(res.Tools)); diff != "" {
				t.Errorf("generated tools (-want +got):\n%s", diff)
			}
			checkStrictRules(t, res.Tools)
		})
	}
}

// TestCompileError checks that a tool package that does not compile is an
// error that names the position.
func TestCompileError(t *testing.T) {
	t.Parallel()
	_, err := generated(t, "broken")
	var ce *compileError
	if !errors.As(err, &ce) {
		t.Fatalf("generate: got error %v, want a compile error", err)
	}
	want := []string{`toolbox/oops_tool.go:3:26: cannot use "not an int" (untyped string constant) as int value in return statement`}
	if diff := cmp.Diff(want, ce.errs); diff != "" {
		t.Errorf("compile errors (-want +got):\n%s", diff)
	}
}

// TestRepositoryRegistryIsCurrent regenerates this repository's registry in
// memory and compares it with the committed zz_registry_gen.go.
func TestRepositoryRegistryIsCurrent(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	res, err := generate(root, "toolbox", "zz_registry_gen.go", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("the toolbox has warnings:\n%s", strings.Join(warningLines(res.Warnings), "\n"))
	}
	want, err := os.ReadFile(filepath.Join(root, "zz_registry_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(res.Source)); diff != "" {
		t.Errorf("zz_registry_gen.go is stale; run go generate ./... (-committed +generated):\n%s", diff)
	}
}

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testModule copies the test module to a temporary directory, pointing its
// replace directive at this checkout. Tests that build its programs use
// buildModule.
func testModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTestModule(t, dir)
	return dir
}

// buildModule is testModule for a test that builds its programs: the
// directory is the same each run (buildcache.Dir), and flags, for go
// build, are go test's own (-race under go test -race), so that the build
// finds in the cache what go test and the test's last run compiled.
func buildModule(t *testing.T) (dir string, flags []string) {
	t.Helper()
	dir, trimpath := buildcache.Dir(t, "toolgen "+t.Name()+" "+mod(t))
	copyTestModule(t, dir)
	return dir, goFlags(trimpath)
}

// goFlags are the flags for go build in a directory of buildcache.Dir.
func goFlags(trimpath bool) []string {
	flags := buildcache.Flags()
	if trimpath {
		flags = append(flags, "-trimpath")
	}
	return flags
}

// copyTestModule copies testdata/mod to dir, its replace directive made
// to name this module's root.
func copyTestModule(t *testing.T, dir string) {
	t.Helper()
	copyTree(t, mod(t), dir)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gomod := filepath.Join(dir, "go.mod")
	b, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, []byte("=> ../../../.."), []byte("=> "+root))
	if err := os.WriteFile(gomod, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func runToolgen(t *testing.T, dir string, args ...string) (code int, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, errb.String()
}

// TestCheck runs the command with -check on a current, a stale and a
// warning registry.
func TestCheck(t *testing.T) {
	want := len(readLines(t, filepath.Join(mod(t), "bad", "want_warnings.txt")))
	dir := testModule(t)
	good := filepath.Join(dir, "good")
	if code, stderr := runToolgen(t, good, "-check"); code != 0 {
		t.Errorf("-check on the current registry: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	gen := filepath.Join(good, "zz_registry_gen.go")
	if err := os.WriteFile(gen, []byte("// Code generated by toolgen. DO NOT EDIT.\n\npackage good\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := runToolgen(t, good, "-check")
	if code != 1 || !strings.Contains(stderr, "zz_registry_gen.go is stale") {
		t.Errorf("-check on a stale registry: exit %d, stderr %q; want exit 1 naming the stale file", code, stderr)
	}
	if b, _ := os.ReadFile(gen); !bytes.Contains(b, []byte("package good\n")) || len(b) > 100 {
		t.Errorf("-check wrote the registry")
	}
	if code, stderr := runToolgen(t, good); code != 0 {
		t.Errorf("generate: exit %d, stderr:\n%s", code, stderr)
	}
	if code, stderr := runToolgen(t, good, "-check"); code != 0 {
		t.Errorf("-check after generate: exit %d, stderr:\n%s", code, stderr)
	}

	bad := filepath.Join(dir, "bad")
	code, stderr = runToolgen(t, bad)
	if code != 0 || !strings.Contains(stderr, "toolbox/nodoc_tool.go:14:2: ") {
		t.Errorf("generate with warnings: exit %d, stderr %q; want exit 0 and the warnings", code, stderr)
	}
	code, stderr = runToolgen(t, bad, "-check")
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("\ntoolgen: %d warning(s)\n", want)) {
		t.Errorf("-check with warnings: exit %d, stderr %q; want exit 1 and %d warnings", code, stderr, want)
	}
	if code, _ := runToolgen(t, filepath.Join(dir, "broken")); code != 1 {
		t.Errorf("generate on a package that does not compile: exit %d, want 1", code)
	}
	if code, _ := runToolgen(t, good, "-nosuchflag"); code != 2 {
		t.Errorf("bad usage: exit %d, want 2", code)
	}
}

// TestDropIn adds a tool to a copy of the test module by dropping one file
// into its toolbox, regenerates, and calls the new tool through the
// registry from a program built against it. Nothing else is edited.
func TestDropIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program; skipped with -short")
	}
	dir, flags := buildModule(t)
	good := filepath.Join(dir, "good")
	tool := `package toolbox

import (
	"context"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Shout answers in capitals.
type Shout struct{}

// ShoutArgs are the arguments of shout.
type ShoutArgs struct {
	// Words to shout.
	Words []string ` + "`json:\"words\" jsonschema:\"minItems=1\"`" + `
}

// Definition describes shout.
func (Shout) Definition() tool.Definition {
	return tool.Definition{ID: "shout", Description: "Shout the words, in capitals. Use it when the user asks to shout."}
}

// Execute shouts.
func (Shout) Execute(ctx context.Context, args ShoutArgs) (string, error) {
	return strings.ToUpper(strings.Join(args.Words, " ")) + "!", nil
}
`
	if err := os.WriteFile(filepath.Join(good, "toolbox", "shout_tool.go"), []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := runToolgen(t, good); code != 0 || stderr != "" {
		t.Fatalf("toolgen: exit %d, stderr:\n%s", code, stderr)
	}
	mainDir := filepath.Join(dir, "cmd", "call")
	if err := os.MkdirAll(mainDir, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := `package main

import (
	"context"
	"fmt"

	"example.com/tools/good"
)

func main() {
	r := good.Toolbox()
	ctx := context.Background()
	fmt.Println(r.Names())
	fmt.Println(r.Call(ctx, "shout", ` + "`{\"words\":[\"drop\",\"in\"]}`" + `).Text)
	fmt.Println(r.Call(ctx, "shout", ` + "`{\"words\":[]}`" + `).Text)
	fmt.Println(r.Call(ctx, "echo", ` + "`{\"text\":\"ab\",\"times\":2}`" + `).Text)
}
`
	if err := os.WriteFile(filepath.Join(mainDir, "main.go"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append(append([]string{"run"}, flags...), "./cmd/call")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	want := strings.Join([]string{
		"[echo find shout]",
		"DROP IN!",
		`Error: shout: bad arguments: field "words": expected at least 1 item, got 0`,
		"abab",
	}, "\n") + "\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// generations holds the registries generated from the test module's
// cases, by case: each generation costs a few go commands, several tests
// read the same case's, and none changes it.
var generations sync.Map // string → func() (*result, error)

// generated generates the registry of the test module's case dir (its
// package toolbox, for the default platforms) once a test process.
func generated(t *testing.T, dir string) (*result, error) {
	t.Helper()
	base := filepath.Join(mod(t), dir)
	f, _ := generations.LoadOrStore(dir, sync.OnceValues(func() (*result, error) {
		return generate(base, "toolbox", "zz_registry_gen.go", nil)
	}))
	return f.(func() (*result, error))()
}

func probesResult(t *testing.T) *result {
	t.Helper()
	res, err := generated(t, "probes")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestProbes checks the capability audit against probe tools that each
// try one way around it (testdata/mod/probes): every capability each one
// reaches is reported with its call path (want_warnings.txt, -update
// rewrites it), only the controls, which declare what they do, are
// generated, and no generated tool reaches more than it declares.
func TestProbes(t *testing.T) {
	t.Parallel()
	base := filepath.Join(mod(t), "probes")
	res := probesResult(t)
	wantFile := filepath.Join(base, "want_warnings.txt")
	got := warningLines(res.Warnings)
	if *update {
		if err := os.WriteFile(wantFile, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(readLines(t, wantFile), got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"controlexec", "controlpure", "controlunsafe"}, toolNames(res.Tools)); diff != "" {
		t.Errorf("generated tools (-want +got):\n%s", diff)
	}
	for _, tl := range res.Tools {
		if tl.Reaches&^tl.Capabilities != 0 {
			t.Errorf("tool %s is generated with capabilities %b but reaches %b", tl.ID, tl.Capabilities, tl.Reaches)
		}
	}
}

// TestHostIndependent generates this repository's registry as if the
// go command targeted other platforms, and with GOFLAGS=-race (which the
// go command refuses without cgo, as most configurations are listed):
// the file must not change, since tools are judged on every supported
// platform whatever the host and the flags of the user's builds.
func TestHostIndependent(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the standard library for other platforms; skipped with -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "zz_registry_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range [][]string{{"GOOS=windows", "GOARCH=amd64"}, {"GOOS=darwin", "GOARCH=arm64"}, {"GOFLAGS=-race"}} {
		t.Run(strings.Join(env, "_"), func(t *testing.T) {
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			res, err := generate(root, "toolbox", "zz_registry_gen.go", nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(res.Source)); diff != "" {
				t.Errorf("with %s the registry differs (-committed +generated):\n%s", strings.Join(env, " "), diff)
			}
		})
	}
}

// TestUsage checks the manual, a missing tool package directory, and that
// notes do not fail -check.
func TestUsage(t *testing.T) {
	dir := testModule(t)
	code, stderr := runToolgen(t, filepath.Join(dir, "good"), "-h")
	if code != 0 || !strings.Contains(stderr, "Exit status:") || !strings.Contains(stderr, "-platforms") || !strings.Contains(stderr, "Writing a tool") {
		t.Errorf("-h: exit %d, stderr:\n%s\nwant exit 0 and the manual: flags, exit status, where the convention is described", code, stderr)
	}
	code, stderr = runToolgen(t, filepath.Join(dir, "good"), "-dir", "nosuch")
	if code != 1 || !strings.Contains(stderr, "tool package directory nosuch does not exist") || strings.Contains(stderr, "fork/exec") {
		t.Errorf("-dir nosuch: exit %d, stderr %q; want exit 1 and a message naming the directory", code, stderr)
	}
	code, stderr = runToolgen(t, filepath.Join(dir, "good"), "-platforms", "linux")
	if code != 2 {
		t.Errorf("-platforms linux: exit %d, stderr %q; want 2", code, stderr)
	}
	// A note alone does not fail -check.
	good := filepath.Join(dir, "good")
	note := `package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Near is a tool in a helper file.
type Near struct{}

// NearArgs are empty.
type NearArgs struct{}

// Definition describes near.
func (Near) Definition() tool.Definition { return tool.Definition{ID: "near", Description: "x"} }

// Execute does nothing.
func (Near) Execute(ctx context.Context, args NearArgs) (string, error) { return "", nil }
`
	if err := os.WriteFile(filepath.Join(good, "toolbox", "near-tool.go"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr = runToolgen(t, good, "-check")
	if code != 0 || !strings.Contains(stderr, "toolbox/near-tool.go:10:6: note: Near looks like a tool") || !strings.Contains(stderr, "rename the file near_tool.go") {
		t.Errorf("-check with a note: exit %d, stderr %q; want exit 0 and the note", code, stderr)
	}
}

// TestExplainUnion checks that the audit runs on each build
// configuration: the probe platformsplit's helper is one file per
// platform, and the paths -explain prints go through both.
func TestExplainUnion(t *testing.T) {
	t.Parallel()
	res := probesResult(t)
	paths, ok := res.Explain["platformsplit"]
	if !ok {
		t.Fatal("platformsplit was not audited")
	}
	for _, file := range []string{"toolbox/platformsplit_linux.go", "toolbox/platformsplit_other.go"} {
		if !slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, file) }) {
			t.Errorf("no path of platformsplit goes through %s; paths:\n%s", file, strings.Join(paths, "\n"))
		}
	}
}

// TestStaleRegistry edits a tool's Execute in a copy of the test module
// without regenerating, and builds: the first error must say what to do,
// through the name of the compile-time check it breaks.
func TestStaleRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build; skipped with -short")
	}
	t.Parallel()
	dir, flags := buildModule(t)
	echo := filepath.Join(dir, "good", "toolbox", "echo_tool.go")
	b, err := os.ReadFile(echo)
	if err != nil {
		t.Fatal(err)
	}
	old := "func (Echo) Execute(ctx context.Context, args EchoArgs) (string, error) {"
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s has no %q", echo, old)
	}
	b = bytes.Replace(b, []byte(old), []byte("func (Echo) Execute(ctx context.Context, args *EchoArgs) (string, error) {"), 1)
	if err := os.WriteFile(echo, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "./good/...")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("the stale registry built")
	}
	var first string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, ".go:") {
			first = line
			break
		}
	}
	if !strings.Contains(first, "zz_registry_gen.go") || !strings.Contains(first, "genRunGoGenerateExecuteEcho") {
		t.Errorf("the first error does not name the check that says to run go generate:\n%s", out)
	}
}

// TestCgoDependency checks a tool package whose helper package needs cgo
// and which has a file for darwin: toolgen reads darwin, not the host's
// platform, with CGO_ENABLED=0, where the helper does not build.
// Generation fails (exit 1), with a hint naming the platforms where the
// package builds and -platforms; with -platforms naming those (with
// -short, the host's only), the registry is generated.
func TestCgoDependency(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil || runtime.GOOS != "linux" {
		t.Skip("needs a linux host with gcc")
	}
	t.Parallel()
	base := filepath.Join(mod(t), "cgodep")
	_, err := generate(base, "toolbox", "zz_registry_gen.go", nil)
	var ce *compileError
	if !errors.As(err, &ce) {
		t.Fatalf("generate: got error %v, want a compile error", err)
	}
	builds := "linux/amd64, linux/arm64, windows/amd64, windows/arm64"
	hint := ce.errs[len(ce.errs)-1]
	want := "hint: the tool package builds on " + builds + " only; "
	flag := "-platforms " + strings.ReplaceAll(builds, ", ", ",") + " in the //go:generate line"
	if !strings.HasPrefix(hint, want) || !strings.Contains(hint, flag) {
		t.Errorf("the last line of the error is %q; want a hint starting %q and naming %q", hint, want, flag)
	}
	if !strings.Contains(ce.Error(), "cgohelper (on darwin/amd64, darwin/arm64)") {
		t.Errorf("the error does not name the helper and darwin:\n%v", ce)
	}
	platforms, err := parsePlatforms(strings.ReplaceAll(builds, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		// The host's only, where the helper builds with cgo: each
		// platform costs the go commands of two configurations. Without
		// -short, as CI runs it, the four the hint names.
		platforms = platforms[:1]
		flag = "-platforms " + platforms[0].String()
	}
	res, err := generate(base, "toolbox", "zz_registry_gen.go", platforms)
	if err != nil {
		t.Fatalf("generate with %s: %v", flag, err)
	}
	if diff := cmp.Diff([]string{"pid"}, toolNames(res.Tools)); diff != "" {
		t.Errorf("tools with %s (-want +got):\n%s", flag, diff)
	}
}

// typesProg calls, for each line of its standard input, "tool<TAB>args",
// the tool of the test module's types registry ("strict:tool" through the
// strict registry), and prints its answer or the error, one line each; for
// the line "strict", it prints whether the strict spec of each tool is
// strict.
const typesProg = `package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"example.com/tools/types"
)

func main() {
	r := types.Toolbox()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if sc.Text() == "strict" {
			for _, s := range r.WithStrict(true).Specs() {
				fmt.Printf("%s strict=%v ", s.Function.Name, s.Function.Strict)
			}
			fmt.Println()
			continue
		}
		name, args, _ := strings.Cut(sc.Text(), "\t")
		reg := r
		if n, ok := strings.CutPrefix(name, "strict:"); ok {
			name, reg = n, r.WithStrict(true)
		}
		res := reg.Call(context.Background(), name, args)
		fmt.Println(strings.ReplaceAll(res.Text, "\n", " "))
	}
}
`

// nest returns the arguments text of a value of a recursive type nested
// depth levels deep: leaf is the innermost level, and each level around it
// is open, the level inside, then closing. (It is built in one pass:
// wrapping the text depth times would copy it depth times, which for the
// 30,000 levels below is about 12 GB of copying.)
func nest(depth int, leaf, open, closing string) string {
	return strings.Repeat(open, depth-1) + leaf + strings.Repeat(closing, depth-1)
}

// TestTypesDecoders calls the tools of the types registry, whose
// arguments are durations, times, maps and recursive types, with
// arguments at and past their limits, in a program built against it.
// The recursive ones are tried at, below and past jsonarg.MaxDepth, plain
// and strict.
func TestTypesDecoders(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program; skipped with -short")
	}
	t.Parallel()
	dir, flags := buildModule(t)
	mainDir := filepath.Join(dir, "cmd", "types")
	if err := os.MkdirAll(mainDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mainDir, "main.go"), []byte(typesProg), 0o644); err != nil {
		t.Fatal(err)
	}
	const maxDepth = jsonarg.MaxDepth
	// outline: root's sections nested, depth 1 the root; the answer has a
	// line a section, indented by its depth.
	section := func(depth int, extra string) string {
		return `{"root":` + nest(depth, `{"title":"t"`+extra+`}`, `{"title":"t"`+extra+`,"children":[`, `]}`) + `}`
	}
	sectionAnswer := func(depth int) string {
		var b strings.Builder
		for i := range depth {
			b.WriteString(strings.Repeat("-", i) + "t;")
		}
		return b.String()
	}
	tooDeep := fmt.Sprintf("nested more than %d levels deep in values of a recursive type, the limit of tool arguments: send a shallower value", maxDepth)
	// match: the arguments struct recurses through not.
	match := func(depth int) string {
		return nest(depth, `{"field":"a","equals":"1"}`, `{"not":`, `}`)
	}
	matchAnswer := func(depth int) string {
		return strings.Repeat("not(", depth-1) + "a=1" + strings.Repeat(")", depth-1)
	}
	// menu: each entry's submenu, a map, holds the next.
	menu := func(depth int) string {
		return `{"items":{"k":` + nest(depth, `{"label":"l"}`, `{"label":"l","sub":{"k":`, `}}`) + `}}`
	}
	menuAnswer := func(depth int) string {
		return strings.Repeat("k:l[", depth-1) + "k:l" + strings.Repeat("]", depth-1)
	}
	cases := []struct{ call, want string }{
		// A strict registry offers tag and menu, whose maps and any
		// strict mode cannot state, with their plain schemas, without
		// strict.
		{"strict", "list strict=true match strict=true menu strict=false outline strict=true remind strict=true tag strict=false wait strict=true "},
		{"outline\t" + `{"root":{"title":"a","children":[{"title":"b","note":{"text":"n","quote":{"title":"q"}}}]},"appendix":{"title":"z"}}`, "a;-b; (n--q;) appendix z;"},
		{"outline\t" + `{"root":{"title":"a","children":[{"title":""}]}}`, `Error: outline: bad arguments: field "root.children[0].title": expected a string of at least 1 character, got 0`},
		{"outline\t" + `{"root":{"title":"a","note":{"text":"n","quote":{"title":"q","x":1}}}}`, `Error: outline: bad arguments: field "root.note.quote.x": unknown field; expected one of "title", "children", "note"`},
		// Inside the function of a recursive type: a value sent in a
		// string, and durations, read by jsonarg with d itself.
		{"outline\t" + `{"root":{"title":"a","note":{"text":"n","priority":"9","spans":["1m"]}}}`, "a; (n)"},
		{"outline\t" + `{"root":{"title":"a","note":{"text":"n","priority":"10"}}}`, `Error: outline: bad arguments: field "root.note.priority": expected integer from 1 to 9, got 10, in the string "10"`},
		{"outline\t" + `{"root":{"title":"a","note":{"text":"n","quote":{"title":"q","note":{"text":"m","spans":["1s",2]}}}}}`, `Error: outline: bad arguments: field "root.note.quote.note.spans[1]": expected a duration string such as "90s", "1m30s" or "1.5h", got number 2`},
		{"outline\t" + section(maxDepth-1, ""), sectionAnswer(maxDepth - 1)},
		{"outline\t" + section(maxDepth, ""), sectionAnswer(maxDepth)},
		{"outline\t" + section(maxDepth+1, ""), `Error: outline: bad arguments: field "root` + strings.Repeat(".children[0]", maxDepth) + `": ` + tooDeep},
		// Far past the limit, with the rest of the text never read.
		{"outline\t" + section(30000, ""), `Error: outline: bad arguments: field "root` + strings.Repeat(".children[0]", maxDepth) + `": ` + tooDeep},
		// Strict: every level's nulls are read as fields left out, down to
		// the limit, where the decoder stops.
		{"strict:outline\t" + strings.TrimSuffix(section(maxDepth, `,"note":null`), "}") + `,"appendix":null}`, sectionAnswer(maxDepth)},
		{"strict:outline\t" + section(maxDepth, `,"note":null`), sectionAnswer(maxDepth)},
		{"strict:outline\t" + section(maxDepth+1, `,"note":null`), `Error: outline: bad arguments: field "root` + strings.Repeat(".children[0]", maxDepth) + `": ` + tooDeep},
		{"outline\t" + section(2, `,"note":null`), `Error: outline: bad arguments: field "root.note": expected object, got null (null is not accepted: send a value, or leave an optional field out)`},
		{"match\t" + `{"all":[{"field":"a","equals":"1"},{"not":{"field":"b","equals":"2"}}]}`, "(a=1) and (not(b=2))"},
		{"match\t" + match(maxDepth), matchAnswer(maxDepth)},
		{"match\t" + match(maxDepth+1), `Error: match: bad arguments: field "` + strings.TrimSuffix(strings.Repeat("not.", maxDepth), ".") + `": ` + tooDeep},
		{"match\t" + `{"field":"a"} {}`, `Error: match: bad arguments: invalid JSON at offset 14: unexpected data after the arguments object`},
		{"strict:match\t" + `{"field":null,"equals":null,"all":null,"not":{"field":"a","equals":"1","all":null,"not":null}}`, "not(a=1)"},
		{"menu\t" + menu(maxDepth), menuAnswer(maxDepth)},
		{"menu\t" + menu(maxDepth+1), `Error: menu: bad arguments: field "items.k` + strings.Repeat(".sub.k", maxDepth) + `": ` + tooDeep},
		{"menu\t" + `{"items":{"k":{"label":"l","sub":{"k":{}}}}}`, `Error: menu: bad arguments: field "items.k.sub.k.label": required, but missing`},
		{"wait\t" + `{"for":"90m"}`, "1h30m0s every 1m0s"},
		{"wait\t" + `{"for":"1s","poll":"10ms","grace":"500ms","steps":["1m","1.5h",".5s"]}`, "1h31m2s every 10ms"},
		{"wait\t" + `{"for":"2h"}`, "2h0m0s every 1m0s"},
		{"wait\t" + `{"for":"2h0m0.000000001s"}`, `Error: wait: bad arguments: field "for": expected duration from 1s to 2h0m0s, got 2h0m0.000000001s`},
		{"wait\t" + `{"for":"999ms"}`, `Error: wait: bad arguments: field "for": expected duration from 1s to 2h0m0s, got 999ms`},
		{"wait\t" + `{"for":5400}`, `Error: wait: bad arguments: field "for": expected a duration string such as "90s", "1m30s" or "1.5h", got number 5400`},
		{"wait\t" + `{"for":"90"}`, `Error: wait: bad arguments: field "for": expected a duration such as "90s", "1m30s" or "1.5h" (units ns, us, ms, s, m, h), got "90"`},
		{"wait\t" + `{"for":"1m","poll":"9ms"}`, `Error: wait: bad arguments: field "poll": expected duration of at least 10ms, got 9ms`},
		{"wait\t" + `{"for":"1m","steps":["1s","1s","1s","1s"]}`, `Error: wait: bad arguments: field "steps": expected at most 3 items, got 4`},
		{"wait\t" + `{"for":"1m","steps":["1s",1]}`, `Error: wait: bad arguments: field "steps[1]": expected a duration string such as "90s", "1m30s" or "1.5h", got number 1`},
		{"list\t" + `{"filter":"a","exact":"false"}`, "a: page 1 of 20, at most 50, exact false"},
		{"list\t" + `{"filter":"a","page":3,"per_page":100,"limit":"1000","exact":"true"}`, "a: page 3 of 100, at most 1000, exact true"},
		{"list\t" + `{"filter":"a","limit":"1","exact":"false"}`, "a: page 1 of 20, at most 1, exact false"},
		{"list\t" + `{"filter":"a","limit":"1001","exact":"false"}`, `Error: list: bad arguments: field "limit": expected integer from 1 to 1000, got 1001, in the string "1001"`},
		{"list\t" + `{"filter":"a","limit":"0","exact":"false"}`, `Error: list: bad arguments: field "limit": expected integer from 1 to 1000, got 0, in the string "0"`},
		{"list\t" + `{"filter":"a","limit":50,"exact":"false"}`, `Error: list: bad arguments: field "limit": expected a string that holds the value, such as "42", got number 50`},
		{"list\t" + `{"filter":"a","exact":true}`, `Error: list: bad arguments: field "exact": expected a string that holds the value, such as "42", got boolean`},
		{"list\t" + `{"filter":"a"}`, `Error: list: bad arguments: field "exact": required, but missing`},
		{"list\t" + `{"filter":"a","exact":"false","order":{"by":"date"}}`, "a: page 1 of 20, at most 50, exact false"},
		{"list\t" + `{"filter":"a","exact":"false","order":{"by":"size"}}`, `Error: list: bad arguments: field "order.by": expected one of "name", "date", got "size"`},
		{"list\t" + `{"filter":"a","exact":"false","per_page":101}`, `Error: list: bad arguments: field "per_page": expected integer from 1 to 100, got 101`},
		{"list\t" + `{"filter":"a","exact":"false","Paging":{"page":2}}`, `Error: list: bad arguments: field "Paging": unknown field; expected one of "page", "per_page", "order", "filter", "limit", "exact"`},
		{"tag\t" + `{"labels":{},"extra":null}`, "[] map[] map[] <nil>:<nil> "},
		{"tag\t" + `{"labels":{"b":"2","a":"1"},"weights":{"x":127,"y":-128},"groups":{"g":["a","b"]},"extra":{"n":[1,"s"]},"raw":[1, 2]}`,
			"[a=1 b=2] map[x:127 y:-128] map[g:[a b]] map[string]interface {}:map[n:[1 s]] [1, 2]"},
		{"tag\t" + `{"labels":{"a":"1","a":"2"},"extra":1}`, `Error: tag: bad arguments: field "labels.a": given more than once`},
		{"tag\t" + `{"labels":{"a":1},"extra":1}`, `Error: tag: bad arguments: field "labels.a": expected string, got number 1`},
		{"tag\t" + `{"labels":{},"weights":{"x":128},"extra":1}`, `Error: tag: bad arguments: field "weights.x": expected integer from -128 to 127, got 128`},
		{"tag\t" + `{"labels":{},"groups":{"g":["a",2]},"extra":1}`, `Error: tag: bad arguments: field "groups.g[1]": expected string, got number 2`},
		{"tag\t" + `{"labels":[],"extra":1}`, `Error: tag: bad arguments: field "labels": expected object, got array`},
		{"tag\t" + `{"labels":{}}`, `Error: tag: bad arguments: field "extra": required, but missing`},
		{"remind\t" + `{"at":"2025-01-31T09:30:00+01:00","note":"tea"}`, "tea at 2025-01-31T08:30:00Z"},
		{"remind\t" + `{"at":"2025-01-31T09:30:00Z","until":"2025-02-01T00:00:00Z","note":"tea"}`, "tea at 2025-01-31T09:30:00Z"},
		{"remind\t" + `{"at":"2025-01-31","note":"tea"}`, `Error: remind: bad arguments: field "at": expected a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z", got "2025-01-31"`},
		{"remind\t" + `{"at":1738315800,"note":"tea"}`, `Error: remind: bad arguments: field "at": expected a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z", got number 1738315800`},
	}
	var in, want strings.Builder
	for _, c := range cases {
		in.WriteString(c.call + "\n")
		want.WriteString(c.want + "\n")
	}
	cmd := exec.Command("go", append(append([]string{"run"}, flags...), "./cmd/types")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if diff := cmp.Diff(want.String(), string(out)); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestProbesInDotlessModule generates the registry of one module twice,
// once with a path whose first element has no dot (go mod init mytools)
// and once with a dotted one: which packages are the standard library's is
// what the go command says, not the shape of a path, so the tool package
// and its helper are audited from source under either path, with the same
// warnings and the same tools. The helper and the tool package have
// start-up code that reads the environment; tool run calls the helper's
// exec without declaring it, runexec declares it, upper is pure.
func TestProbesInDotlessModule(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(mod(t), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	tool := func(typ, id, caps, call string) string {
		return `package toolbox

import (
	"context"

	"MODULE/helper"
	"github.com/toolreg/toolreg/tool"
)

// ` + typ + ` is a tool of the module.
type ` + typ + ` struct{}

// ` + typ + `Args are its arguments.
type ` + typ + `Args struct {
	// Name is a word.
	Name string ` + "`json:\"name\"`" + `
}

// Definition describes the tool.
func (` + typ + `) Definition() tool.Definition {
	return tool.Definition{ID: "` + id + `", Description: "A tool of a module. Use it when a test needs this case of the audit.", Capabilities: ` + caps + `}
}

// Execute calls the helper.
func (` + typ + `) Execute(ctx context.Context, args ` + typ + `Args) (string, error) {
	` + call + `
}
`
	}
	files := map[string]string{
		"go.mod": "module MODULE\n\ngo 1.26.0\n\nrequire github.com/toolreg/toolreg v0.0.0\n\nreplace github.com/toolreg/toolreg => " + root + "\n",
		"go.sum": string(sum),
		"gen.go": "// Package mytools is a registry.\npackage mytools\n",
		"helper/helper.go": `// Package helper runs programs for the tools.
package helper

import (
	"os"
	"os/exec"
	"strings"
)

// Home is read at start.
var Home = os.Getenv("HOME")

// Run runs name.
func Run(name string) error { return exec.Command(name).Run() }

// Upper is pure.
func Upper(s string) string { return strings.ToUpper(s) }
`,
		"toolbox/startup.go":      "package toolbox\n\nimport \"os\"\n\nvar debug = os.Getenv(\"MYTOOLS_DEBUG\") != \"\"\n",
		"toolbox/run_tool.go":     tool("Run", "run", "0", `return "", helper.Run(args.Name)`),
		"toolbox/runexec_tool.go": tool("RunExec", "runexec", "tool.Exec", `return "", helper.Run(args.Name)`),
		"toolbox/upper_tool.go":   tool("Upper", "upper", "0", `return helper.Upper(args.Name), nil`),
	}
	gen := func(module string) *result {
		t.Helper()
		dir := t.TempDir()
		tree := map[string]string{}
		for name, src := range files {
			tree[name] = strings.ReplaceAll(src, "MODULE", module)
		}
		writeTree(t, dir, tree)
		res, err := generate(dir, "toolbox", "zz_registry_gen.go", nil)
		if err != nil {
			t.Fatalf("module %s: %v", module, err)
		}
		return res
	}
	dotless, dotted := gen("mytools"), gen("example.com/mytools")

	want := []string{
		"helper/helper.go:11:21: start-up code of package mytools/helper reaches env: helper.init → os.Getenv; it runs at start in every agent",
		"toolbox/run_tool.go:26:23: tool run reaches exec: Execute → helper.Run (helper/helper.go:14) → exec.Cmd.Run",
		"toolbox/startup.go:5:22: start-up code of package mytools/toolbox reaches env: toolbox.init → os.Getenv; it runs at start in every agent",
	}
	if diff := cmp.Diff(want, warningLines(dotless.Warnings)); diff != "" {
		t.Errorf("module mytools: warnings (-want +got):\n%s", diff)
	}
	undot := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			out = append(out, strings.ReplaceAll(l, "example.com/mytools", "mytools"))
		}
		return out
	}
	if diff := cmp.Diff(undot(warningLines(dotted.Warnings)), warningLines(dotless.Warnings)); diff != "" {
		t.Errorf("warnings of module mytools differ from example.com/mytools's (-dotted +dotless):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"runexec", "upper"}, toolNames(dotless.Tools)); diff != "" {
		t.Errorf("module mytools: generated tools (-want +got):\n%s", diff)
	}
	reaches := func(res *result) map[string]uint64 {
		out := map[string]uint64{}
		for _, tl := range res.Tools {
			out[tl.ID] = tl.Reaches
		}
		return out
	}
	if diff := cmp.Diff(reaches(dotted), reaches(dotless)); diff != "" {
		t.Errorf("what the tools reach differs (-example.com/mytools +mytools):\n%s", diff)
	}
	// The registries differ in the tool package's import path, and so in
	// where it sorts among the imports.
	withoutImport := func(src []byte, module string) string {
		s := strings.Replace(string(src), "\t\""+module+"/toolbox\"\n", "", 1)
		return strings.ReplaceAll(s, module+"/", "MODULE/")
	}
	if diff := cmp.Diff(withoutImport(dotted.Source, "example.com/mytools"), withoutImport(dotless.Source, "mytools")); diff != "" {
		t.Errorf("the registry of module mytools differs from example.com/mytools's (-dotted +dotless):\n%s", diff)
	}
}
