package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/strictrules"
	"github.com/toolreg/toolreg/toolcheck"
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
	for _, tc := range []struct {
		dir   string
		tools []string
	}{
		{"good", []string{"echo", "find"}},
		{"found", []string{"anyres", "bytes", "entries", "ints", "invokeentries", "keys", "obj", "strs", "uuid"}},
		{"cgo", []string{"pid"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join(mod(t), tc.dir)
			res, err := generate(base, "toolbox", "zz_registry_gen.go", nil)
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
	dir := testModule(t)
	pkgs := []string{"./good/...", "./found/..."}
	if _, err := exec.LookPath("gcc"); err == nil {
		pkgs = append(pkgs, "./cgo/...")
	} else {
		t.Log("no gcc: the cgo case is not built")
	}
	cmd := exec.Command("go", append([]string{"build"}, pkgs...)...)
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
	for _, dir := range []string{"bad", "found", "cgo"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join(mod(t), dir)
			res, err := generate(base, "toolbox", "zz_registry_gen.go", nil)
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
	_, err := generate(filepath.Join(mod(t), "broken"), "toolbox", "zz_registry_gen.go", nil)
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
// replace directive at this checkout.
func testModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
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
	return dir
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
	if code != 1 || !strings.Contains(stderr, "23 warning(s)") {
		t.Errorf("-check with warnings: exit %d, stderr %q; want exit 1 and 23 warnings", code, stderr)
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
	dir := testModule(t)
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
	cmd := exec.Command("go", "run", "./cmd/call")
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

// The probes' generation, once for the tests that read it.
var (
	probesOnce sync.Once
	probesRes  *result
	probesErr  error
)

func probesResult(t *testing.T) *result {
	t.Helper()
	probesOnce.Do(func() {
		probesRes, probesErr = generate(filepath.Join(mod(t), "probes"), "toolbox", "zz_registry_gen.go", nil)
	})
	if probesErr != nil {
		t.Fatal(probesErr)
	}
	return probesRes
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
// go command targeted other platforms: the file must not change, since
// tools are judged on every supported platform whatever the host.
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
	for _, p := range [][2]string{{"windows", "amd64"}, {"darwin", "arm64"}} {
		t.Run(p[0]+"_"+p[1], func(t *testing.T) {
			t.Setenv("GOOS", p[0])
			t.Setenv("GOARCH", p[1])
			res, err := generate(root, "toolbox", "zz_registry_gen.go", nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(res.Source)); diff != "" {
				t.Errorf("with GOOS=%s GOARCH=%s the registry differs (-committed +generated):\n%s", p[0], p[1], diff)
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
