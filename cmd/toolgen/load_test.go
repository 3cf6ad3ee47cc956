package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/audit"
	"github.com/toolreg/toolreg/internal/toolcheck"
)

// writeTree writes files, named by their slash paths under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRelPath checks the file names and positions of warnings and errors:
// relative to the directory toolgen runs in when they lie under it, as
// they are otherwise.
func TestRelPath(t *testing.T) {
	base := filepath.Join(string(filepath.Separator)+"src", "reg")
	for _, tc := range []struct{ base, file, want string }{
		{base, filepath.Join(base, "toolbox", "a_tool.go"), filepath.Join("toolbox", "a_tool.go")},
		{base, filepath.Join(base, "toolbox", "a_tool.go") + ":3:26", filepath.Join("toolbox", "a_tool.go") + ":3:26"},
		{base, filepath.Join(base, "a.go") + ":7", "a.go:7"},
		{base, filepath.Join(base, "..tools", "a.go"), filepath.Join("..tools", "a.go")},
		{base, filepath.Join(base, "..", "other", "a.go") + ":1:1", filepath.Join(base, "..", "other", "a.go") + ":1:1"},
		{base, filepath.Join(string(filepath.Separator)+"src", "a.go"), filepath.Join(string(filepath.Separator)+"src", "a.go")},
		{base, base + "x" + string(filepath.Separator) + "a.go", base + "x" + string(filepath.Separator) + "a.go"},
		{base, filepath.Join("toolbox", "a_tool.go") + ":2:1", filepath.Join("toolbox", "a_tool.go") + ":2:1"},
		{base, "", ""},
		{"", filepath.Join(base, "a.go"), filepath.Join(base, "a.go")},
	} {
		if got := relPath(tc.base, tc.file); got != tc.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", tc.base, tc.file, got, tc.want)
		}
	}
}

// TestLanguageVersion checks that the tool package is type-checked at the
// language version of its module, as the go command builds it: a feature
// newer than the go directive is a compile error, not a tool.
func TestLanguageVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":                "module example.com/old\n\ngo 1.21\n",
		"gen.go":                "// Package old is a registry of an old module.\npackage old\n",
		"toolbox/count_tool.go": "package toolbox\n\nfunc count() (n int) {\n\tfor range 3 {\n\t\tn++\n\t}\n\treturn n\n}\n",
	})
	_, err := generate(dir, "toolbox", "zz_registry_gen.go", nil)
	var ce *compileError
	if !errors.As(err, &ce) {
		t.Fatalf("generate: got error %v, want a compile error", err)
	}
	want := []string{"toolbox/count_tool.go:4:12: cannot range over 3 (untyped int constant): requires go1.22 or later"}
	if diff := cmp.Diff(want, ce.errs); diff != "" {
		t.Errorf("compile errors (-want +got):\n%s", diff)
	}
}

// TestCgoImports checks the imports of a tool package that use cgo. On the
// host they are loaded as the go command builds them, with cgo when the
// environment has it: a package whose only file uses cgo is found. For
// another platform they are loaded without cgo, which needs a C cross
// compiler, even when the environment asks for cgo: the package's Go
// fallback is read and the tool is not lost for want of a compiler.
func TestCgoImports(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Fatalf("no gcc: the cgo cases need a C compiler, as the README's test command does (-race): %v", err)
	}
	t.Setenv("CGO_ENABLED", "1")
	host := toolcheck.Platform{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	foreign := toolcheck.Platform{GOOS: "linux", GOARCH: "amd64"}
	if host == foreign {
		foreign.GOARCH = "arm64"
	}
	const cgoFile = "// Package %[1]s has a cgo file.\npackage %[1]s\n\n// #include <unistd.h>\nimport \"C\"\n\n// Mode is a mode.\ntype Mode string\n\nfunc pid() int { return int(C.getpid()) }\n"
	dir := testModule(t)
	writeTree(t, dir, map[string]string{
		"cgoimp/gen.go": "// Package cgoimp is a registry whose tools import packages that use cgo.\npackage cgoimp\n",
		// only has nothing but its cgo file.
		"cgoimp/only/only.go": fmt.Sprintf(cgoFile, "only"),
		// either has a Go file for builds without cgo too.
		"cgoimp/either/either_cgo.go":  "//go:build cgo\n\n" + fmt.Sprintf(cgoFile, "either"),
		"cgoimp/either/either_pure.go": "//go:build !cgo\n\n// Package either has a file for builds without cgo.\npackage either\n\n// Mode is a mode.\ntype Mode string\n",
		"cgoimp/host/only_tool.go":     internalTool("Only", "only", "example.com/tools/cgoimp/only"),
		"cgoimp/cross/either_tool.go":  internalTool("Either", "either", "example.com/tools/cgoimp/either"),
	})
	base := filepath.Join(dir, "cgoimp")
	for _, tc := range []struct {
		pkg      string
		platform toolcheck.Platform
		tool     string
		warnings []string
	}{
		// The C code of a package, which may run at start, is a
		// warning (cgoStart), whichever configurations build it.
		{"host", host, "only", []string{"only/only.go:5:8: " + cgoStart("example.com/tools/cgoimp/only", "only.go")}},
		// Its cgo file cannot be audited without a C cross-compiler,
		// which a note says.
		{"cross", foreign, "either", []string{"cross/either_tool.go:1:1: note: the build configuration " + foreign.String() +
			" cgo (no C cross-compiler) is not audited on this host; its files differ from every audited one",
			"either/either_cgo.go:7:8: " + cgoStart("example.com/tools/cgoimp/either", "either_cgo.go")}},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			res, err := generate(base, tc.pkg, "zz_registry_gen.go", []toolcheck.Platform{tc.platform})
			if err != nil {
				t.Fatalf("generate for %s: %v", tc.platform, err)
			}
			if diff := cmp.Diff(tc.warnings, warningLines(res.Warnings)); diff != "" {
				t.Errorf("warnings for %s (-want +got):\n%s", tc.platform, diff)
			}
			if diff := cmp.Diff([]string{tc.tool}, toolNames(res.Tools)); diff != "" {
				t.Errorf("tools for %s (-want +got):\n%s", tc.platform, diff)
			}
		})
	}
}

// cgoStart is the warning about the C or object code of package pkg, in
// files.
func cgoStart(pkg, files string) string {
	return "package " + pkg + " holds C or object code (" + files + "), which the audit cannot read: " +
		"it can run at start in every agent without a call from Go (a C constructor, an .init_array entry), before main and the sandbox; " +
		"review it and name the package in toolgen's -trust-c, or keep it out of the program's packages"
}

// TestTrustC: the C code of a package named in -trust-c is a note, not a
// warning, so that a reviewed cgo dependency does not fail -check; the
// other warnings stay; a name in -trust-c that is no package with C code
// is a warning, so that a typo or a stale name does not pass unseen.
func TestTrustC(t *testing.T) {
	cgo := filepath.Join(testModule(t), "cgo")
	const pkg = "example.com/tools/cgo/toolbox"
	warning := "toolbox/pid.go:4:8: " + cgoStart(pkg, "pid.go")
	note := "toolbox/pid.go:4:8: note: package " + pkg + " holds C or object code, which the audit cannot read; trusted (-trust-c)"
	stale := "toolgen: -trust-c names example.com/nosuch, which is no package of the program with C or object code"
	for _, tc := range []struct {
		trust     string
		want, not []string
		nWarnings string
		long      bool // the list's spelling and its stale names: about 1 s of CPU each
	}{
		{"", []string{warning}, []string{note}, "2 warning(s)", false},
		{pkg, []string{note}, []string{warning, stale}, "1 warning(s)", false},
		{" " + pkg + " ,, ", []string{note}, []string{warning, stale}, "1 warning(s)", true},
		{pkg + ",example.com/nosuch", []string{note, stale}, []string{warning}, "2 warning(s)", true},
		{"example.com/tools/cgo", []string{warning, "toolgen: -trust-c names example.com/tools/cgo, which"}, []string{note}, "3 warning(s)", true},
	} {
		t.Run(fmt.Sprintf("%q", tc.trust), func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("a long case, which the full test command runs")
			}
			// The host's platform alone: what -trust-c changes is the
			// host's configuration with cgo, and each configuration
			// without cgo of a package that needs it is confirmed by a go
			// command (twelve on the six platforms).
			code, stderr := runToolgen(t, cgo, "-check", "-trust-c", tc.trust, "-platforms", runtime.GOOS+"/"+runtime.GOARCH)
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("%q not in:\n%s", w, stderr)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(stderr, w) {
					t.Errorf("%q in:\n%s", w, stderr)
				}
			}
			// The tool that calls into C still reaches unsafe.
			if code != 1 || !strings.Contains(stderr, "toolgen: "+tc.nWarnings) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %s", code, stderr, tc.nWarnings)
			}
		})
	}
}

// TestConfigurations checks the grouping of platforms by the files they
// compile against go/build reading every file for every platform: names
// with a platform, build constraints old and new, a file that go/build
// cannot read (an error, whichever platform reads it first, also when
// its name excludes it on the first).
func TestConfigurations(t *testing.T) {
	platforms := toolcheck.SupportedPlatforms()
	cases := []map[string]string{
		{
			"a_tool.go":         "package tb\n",
			"b_windows.go":      "package tb\n",
			"c_linux_arm64.go":  "package tb\n",
			"d.go":              "//go:build darwin || (linux && amd64)\n\npackage tb\n",
			"e.go":              "// +build !windows\n\npackage tb\n",
			"f.go":              "// A comment that says go:build, after the package clause.\npackage tb\n\n// +build windows\n",
			"g_test.go":         "package tb\n",
			"h.go":              "package tb\n\nimport \"C\"\n",
			"i_darwin_amd64.go": "//go:build ignore\n\npackage tb\n",
		},
		// Every system's architectures apart (TestInvariant splits
		// linux's alone), and one system's for one architecture.
		{
			"a_tool.go":  "package tb\n",
			"j.go":       "//go:build amd64\n\npackage tb\n",
			"k_arm64.go": "package tb\n",
			"l.go":       "//go:build !(windows && arm64)\n\npackage tb\n",
		},
		// go/build fails on a NUL byte in what it reads.
		{"a.go": "package tb\n", "b_windows.go": "package tb\n\x00"},
		{"a.go": "package tb\n", "b.go": "package tb\n\x00"},
		{"a.go": "package tb\n", "b.go": "pkg tb\n"},
	}
	for i, files := range cases {
		dir := t.TempDir()
		writeTree(t, dir, files)
		got, gotErr := configurations(dir, platforms)
		want, wantErr := configurationsByReading(dir, platforms)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("case %d: error %v, want %v", i, gotErr, wantErr)
			continue
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(config{})); diff != "" {
			t.Errorf("case %d (-want +got):\n%s", i, diff)
		}
	}
}

// configurationsByReading is configurations as go/build judges each
// platform, reading each file from disk every time.
func configurationsByReading(dir string, platforms []toolcheck.Platform) ([]config, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var configs []config
	for _, p := range platforms {
		ctx := p.Context()
		var files, ignored []string
		for _, e := range entries {
			n := e.Name()
			if filepath.Ext(n) != ".go" || len(n) > len("_test.go") && n[len(n)-len("_test.go"):] == "_test.go" {
				continue
			}
			ok, err := ctx.MatchFile(dir, n)
			if err != nil {
				return nil, fmt.Errorf("tool package: %w", err)
			}
			if ok {
				files = append(files, filepath.Join(dir, n))
			} else {
				ignored = append(ignored, filepath.Join(dir, n))
			}
		}
		i := -1
		for k, c := range configs {
			if cmp.Equal(c.files, files) {
				i = k
			}
		}
		if i < 0 {
			configs = append(configs, config{files: files, ignored: ignored, load: p})
			i = len(configs) - 1
		}
		configs[i].platforms = append(configs[i].platforms, p)
		if p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH {
			configs[i].load = p
		}
	}
	return configs, nil
}

// TestDoubledConstant checks a tool whose Description is a constant of
// 1 GiB, doubled in each of 18 lines from 4 KiB: go/constant builds it
// only when read, and toolgen, which read it, ran out of memory. It is a
// warning now, the tool is left out, and the other tool is generated.
func TestDoubledConstant(t *testing.T) {
	t.Parallel()
	dir := testModule(t)
	var src strings.Builder
	src.WriteString("package toolbox\n\nimport (\n\t\"context\"\n\n\t\"github.com/toolreg/toolreg/tool\"\n)\n\n")
	fmt.Fprintf(&src, "const d0 = %q\n", strings.Repeat("Use it when a test needs a doubled constant. ", 92)[:4096])
	// 2^18 × 4 KiB: 1 GiB, under the 2,000,000,000 bytes past which Go
	// 1.27's type checker refuses a constant string itself.
	for i := 1; i <= 18; i++ {
		fmt.Fprintf(&src, "const d%d = d%d + d%d\n", i, i-1, i-1)
	}
	src.WriteString(`
// Big has a description of 1 GiB.
type Big struct{}

// BigArgs are empty.
type BigArgs struct{}

// Definition describes big.
func (Big) Definition() tool.Definition {
	return tool.Definition{ID: "big", Description: d18}
}

// Execute answers.
func (Big) Execute(ctx context.Context, args BigArgs) (string, error) { return "", nil }
`)
	echo, err := os.ReadFile(filepath.Join(mod(t), "good", "toolbox", "echo_tool.go"))
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{
		"doubled/gen.go":               "// Package doubled is a registry with a tool of a huge description.\npackage doubled\n",
		"doubled/toolbox/big_tool.go":  src.String(),
		"doubled/toolbox/echo_tool.go": string(echo),
	})
	res, err := generate(filepath.Join(dir, "doubled"), "toolbox", "zz_registry_gen.go", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"toolbox/big_tool.go:37:49: Big.Definition: Description holds more than 65536 bytes, which toolgen does not read: every request sends it; keep it short"}
	if diff := cmp.Diff(want, warningLines(res.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"echo"}, toolNames(res.Tools)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// TestNotRegularFile checks a tool package with a Go file that is a
// symbolic link (which git keeps) to /dev/zero: toolgen read it whole
// and ran out of memory. It is an error now, as the go command's, found
// before any go command runs (the go command waits forever on a fifo):
// none is on PATH.
func TestNotRegularFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	// Not parallel: it empties PATH.
	dir := testModule(t)
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "good", "toolbox", "zero.go")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := generate(filepath.Join(dir, "good"), "toolbox", "zz_registry_gen.go", nil)
	if err == nil || !strings.Contains(err.Error(), "zero.go is not a regular file") {
		t.Errorf("generate: got error %v, want one saying zero.go is not a regular file", err)
	}
}

// TestSymlinkedDirectory checks that a symbolic link to a directory named
// like a Go file, which the go command skips, is no file of the tool
// package or the output package to toolgen either: it was refused as not a
// regular file.
func TestSymlinkedDirectory(t *testing.T) {
	t.Parallel()
	dir := testModule(t)
	for _, link := range []string{filepath.Join("toolbox", "dir.go"), "dir.go"} {
		if err := os.Symlink(t.TempDir(), filepath.Join(dir, "good", link)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := generate(filepath.Join(dir, "good"), "toolbox", "zz_registry_gen.go", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) == 0 {
		t.Errorf("no tool generated beside a link to a directory")
	}
}

// TestForeignCodeLargeFiles checks that foreignCode reads a file's header
// alone: a file with a small header and a large body is read in part (it
// was read whole, and one past 64 MiB was skipped, its import "C" unseen),
// and one whose imports go on past what is read may import "C", which is
// warned about.
func TestForeignCodeLargeFiles(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("// filler\n", 2<<20/10)
	for _, c := range []struct {
		name, src string
		warned    bool
	}{
		{"small header, large body", "package p\n\nimport \"C\"\n\n" + body, true},
		{"large body without C", "package p\n\nimport \"strings\"\n\nvar _ = strings.Cut\n\n" + body, false},
		{"imports past the header", "package p\n\n" + body + "import \"C\"\n", true},
		// The first MiB (audit.ReadHeader) ends in the "/" of a comment:
		// a division, to a scan of it alone (found in review).
		{"a comment cut after its slash", "package p\n" + strings.Repeat("\n", 1<<20-len("package p\n")-1) + "/*\n#include <unistd.h>\n*/\nimport \"C\"\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			ds := foreignCode([]audit.PackageDir{{Path: "example.com/p", Dir: dir}}, dir)
			if got := len(ds) == 1 && strings.Contains(ds[0].Msg, "holds C or object code (p.go)"); got != c.warned || len(ds) > 1 {
				t.Errorf("warnings %v, want one about p.go: %v", ds, c.warned)
			}
		})
	}
}
