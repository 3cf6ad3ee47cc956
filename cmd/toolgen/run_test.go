package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/toolcheck"
)

// TestUnchangedNotRewritten checks that a registry that is current is not
// written again: its modification time stays, so that nothing that
// depends on the file is rebuilt for nothing.
func TestUnchangedNotRewritten(t *testing.T) {
	good := filepath.Join(testModule(t), "good")
	gen := filepath.Join(good, "zz_registry_gen.go")
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(gen, old, old); err != nil {
		t.Fatal(err)
	}
	if code, stderr := runToolgen(t, good); code != 0 {
		t.Fatalf("generate: exit %d, stderr:\n%s", code, stderr)
	}
	fi, err := os.Stat(gen)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(old) {
		t.Errorf("the current registry was written again: modified %v, want %v", fi.ModTime(), old)
	}
}

// TestParsePlatforms checks the -platforms list: GOOS/GOARCH pairs,
// spaces around them allowed, and each half required.
func TestParsePlatforms(t *testing.T) {
	got, err := parsePlatforms(" linux/amd64 ,darwin/arm64")
	want := []toolcheck.Platform{{GOOS: "linux", GOARCH: "amd64"}, {GOOS: "darwin", GOARCH: "arm64"}}
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("parsePlatforms = %v, %v; want %v", got, err, want)
	}
	if got, err := parsePlatforms(""); err != nil || !cmp.Equal(toolcheck.SupportedPlatforms(), got) {
		t.Errorf(`parsePlatforms("") = %v, %v; want the supported platforms`, got, err)
	}
	for _, bad := range []string{"linux", "/amd64", "linux/", "linux/amd64,", "/"} {
		if got, err := parsePlatforms(bad); err == nil || !strings.Contains(err.Error(), "is not GOOS/GOARCH") {
			t.Errorf("parsePlatforms(%q) = %v, %v; want an error", bad, got, err)
		}
	}
}

// TestCanImport checks Go's rule for internal packages as the registry
// applies it: a package may import an internal one only from within the
// tree rooted at the internal directory's parent.
func TestCanImport(t *testing.T) {
	for _, tc := range []struct {
		from, path string
		want       bool
	}{
		{"m/reg", "m/reg/internal/k", true},
		{"m/reg", "m/reg/internal", true},
		{"m/reg/sub", "m/reg/internal/k", true},
		{"m", "m/internal/k", true},
		{"m/reg", "m/internal/k", true},
		{"m", "m/reg/internal/k", false},
		{"m/regx", "m/reg/internal/k", false},
		{"m/other", "m/reg/internal", false},
		{"m/reg", "m/reg/tools/internal/k", false},
		{"m/reg", "internal/poll", false},
		{"m/reg", "internal", false},
		{"m/reg", "m/internalish/k", true},
		{"m/reg", "m/tools", true},
	} {
		if got := canImport(tc.from, tc.path); got != tc.want {
			t.Errorf("canImport(%q, %q) = %v, want %v", tc.from, tc.path, got, tc.want)
		}
	}
}

// TestInternalTypes generates a registry in a subdirectory of the module
// whose tool package lies deeper still: a tool whose arguments use an
// internal package the registry cannot import is left out with a warning
// naming both, and one whose internal package the registry can import is
// kept. The registry's import path is the module's and the directory's.
func TestInternalTypes(t *testing.T) {
	t.Parallel()
	dir := testModule(t)
	files := map[string]string{
		"deep/gen.go":                     "// Package deep is a registry above its tool package.\npackage deep\n",
		"deep/internal/near/near.go":      "// Package near is importable by the registry.\npackage near\n\n// Mode is a mode.\ntype Mode string\n",
		"deep/tools/internal/far/far.go":  "// Package far is not importable by the registry.\npackage far\n\n// Mode is a mode.\ntype Mode string\n",
		"deep/tools/toolbox/near_tool.go": internalTool("Near", "near", "example.com/tools/deep/internal/near"),
		"deep/tools/toolbox/far_tool.go":  internalTool("Far", "far", "example.com/tools/deep/tools/internal/far"),
	}
	writeTree(t, dir, files)
	res, err := generate(filepath.Join(dir, "deep"), "tools/toolbox", "zz_registry_gen.go", nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"near"}, toolNames(res.Tools)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	want := []string{"tools/toolbox/far_tool.go:1:1: tool Far uses types of example.com/tools/deep/tools/internal/far, an internal package the registry package example.com/tools/deep cannot import: move the types out of it"}
	if diff := cmp.Diff(want, warningLines(res.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// internalTool is the source of a tool whose argument has a type of the
// package at path.
func internalTool(typ, id, path string) string {
	pkg := path[strings.LastIndex(path, "/")+1:]
	return `package toolbox

import (
	"context"

	"` + path + `"
	"github.com/toolreg/toolreg/tool"
)

// ` + typ + ` takes a mode.
type ` + typ + ` struct{}

// ` + typ + `Args are the arguments of ` + id + `.
type ` + typ + `Args struct {
	// The mode to use, in a few words.
	Mode ` + pkg + `.Mode ` + "`json:\"mode\"`" + `
}

// Definition describes ` + id + `.
func (` + typ + `) Definition() tool.Definition {
	return tool.Definition{
		ID:          "` + id + `",
		Description: "Answer with the mode it is given. Use it when a test needs a tool with an internal type.",
	}
}

// Execute answers with the mode.
func (` + typ + `) Execute(ctx context.Context, args ` + typ + `Args) (string, error) {
	return string(args.Mode), nil
}
`
}

// TestImportError checks a tool package that imports a package no module
// provides: the go command's error is all there is, and it is reported,
// not dropped for want of a typed one.
func TestImportError(t *testing.T) {
	t.Parallel()
	dir := testModule(t)
	writeTree(t, dir, map[string]string{
		"missing/gen.go":               "// Package missing is a registry whose tools do not build.\npackage missing\n",
		"missing/toolbox/gone_tool.go": "package toolbox\n\nimport _ \"example.com/tools/nosuch\"\n",
	})
	_, err := generate(filepath.Join(dir, "missing"), "toolbox", "zz_registry_gen.go", nil)
	var ce *compileError
	if !errors.As(err, &ce) {
		t.Fatalf("generate: got error %v, want a compile error", err)
	}
	if len(ce.errs) == 0 || !strings.Contains(strings.Join(ce.errs, "\n"), "example.com/tools/nosuch") {
		t.Errorf("compile errors %q, want the go command's, naming the missing package", ce.errs)
	}
}

// TestOutputPackageClash checks that a name the registry package declares
// in another of its files, which the generated file declares too or
// imports a package by (var registry = Toolbox() in package main, beside
// the registry), fails toolgen with the position and the fix: the file it
// wrote did not build ("registry already declared through import of
// package").
func TestOutputPackageClash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, src, want string }{
		{"mine_test.go", "var registry = Toolbox()\n", `mine_test.go:3:5: registry is declared here and by the generated zz_registry_gen.go (the name of an import of package github.com/toolreg/toolreg/registry): rename it`},
		{"mine.go", "var registry = Toolbox()\n", `mine.go:3:5: registry is declared here and by the generated zz_registry_gen.go (the name of an import of package github.com/toolreg/toolreg/registry): rename it`},
		{"mine.go", "func genIndex() {}\n", `mine.go:3:6: genIndex is declared here and by the generated zz_registry_gen.go: rename it`},
		{"mine.go", "const (\n\tA = iota\n\ttime\n)\n", `mine.go:5:2: time is declared here and by the generated zz_registry_gen.go (the name of an import of package time): rename it`},
		{"mine.go", "type context struct{}\n", `mine.go:3:6: context is declared here and by the generated zz_registry_gen.go (the name of an import of package context): rename it`},
	} {
		dir := testModule(t)
		good := filepath.Join(dir, "good")
		if err := os.WriteFile(filepath.Join(good, tc.file), []byte("package good\n\n"+tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := generate(good, "toolbox", "zz_registry_gen.go", nil)
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("generate beside %q: error %v, want one ending in %q", tc.src, err, tc.want)
		}
	}
}
