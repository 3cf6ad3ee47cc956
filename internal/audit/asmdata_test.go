package audit

import (
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAsmData reads the DATA directives of a package's assembly and sorts
// them: file-local data and symbols of the package's own that Go does not
// declare pass; a variable of non-standard code, its own or another
// package's, is set by assembly; a variable of the standard library, a
// symbol a macro spells, a directive a macro hides, a package named other
// than by its import path (main·) and a file that cannot be read are
// findings.
func TestAsmData(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"honest_amd64.s": "#include \"textflag.h\"\n" +
			"DATA table<>+0(SB)/8, $1 // file-local\n" +
			"GLOBL table<>(SB), RODATA, $8\n" +
			"DATA ·consts+0(SB)/8, $2\n" + // the assembly's own symbol
			"// DATA ·hook+0(SB)/8, $0 in a comment\n" +
			"/* DATA ·hook+0(SB)/8, $0\n   still a comment */\n",
		"hostile_arm64.s": "DATA ·hook+0(SB)/8, $·f(SB)\n" +
			"DATA example.com∕q·Hook+0(SB)/8, $0\n" +
			"DATA os·Args+0(SB)/8, $0\n",
		"macro.h":       "#define SYM ·hook\n#define D DATA\n",
		"macro_amd64.s": "#include \"macro.h\"\nDATA SYM+0(SB)/8, $0\n",
		"notes.txt":     "DATA ·hook+0(SB)/8, $0\n", // not assembly
		// The linker's name of a package main, not its import path.
		"byname_amd64.s": "DATA main·hook+0(SB)/8, $0\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/null", filepath.Join(dir, "device_amd64.s")); err != nil {
		t.Fatal(err)
	}
	// A link to a directory is no file to the go command, nor to the audit.
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "dir_amd64.s")); err != nil {
		t.Fatal(err)
	}
	own := types.NewPackage("example.com/p", "p")
	hook := types.NewVar(token.NoPos, own, "hook", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	own.Scope().Insert(hook)
	other := types.NewPackage("example.com/q", "q")
	qhook := types.NewVar(token.NoPos, other, "Hook", hook.Type())
	other.Scope().Insert(qhook)
	osPkg := types.NewPackage("os", "os")
	osPkg.Scope().Insert(types.NewVar(token.NoPos, osPkg, "Args", types.NewSlice(types.Typ[types.String])))
	byPath := map[string]*types.Package{own.Path(): own, other.Path(): other, "os": osPkg}

	vars, findings := resolveAsmData(asmData(own.Path(), dir), byPath, map[string]bool{"os": true})
	var set []string
	for v, why := range vars {
		set = append(set, v.Pkg().Path()+"."+v.Name()+": "+why)
	}
	slices.Sort(set)
	wantSet := []string{
		"example.com/p.hook: variable example.com/p.hook, which assembly gives its value (DATA, hostile_arm64.s:1)",
		"example.com/q.Hook: variable example.com/q.Hook, which assembly gives its value (DATA, hostile_arm64.s:2)",
	}
	if diff := cmp.Diff(wantSet, set); diff != "" {
		t.Errorf("variables set by assembly (-want +got):\n%s", diff)
	}
	var got []string
	for _, f := range findings {
		got = append(got, filepath.Base(f.Pos.Filename)+": "+f.Cap.String()+": "+f.Path(filepath.Base, false))
	}
	slices.Sort(got)
	want := []string{
		"byname_amd64.s: unsafe: DATA main·hook",
		"device_amd64.s: unsafe: an assembly file the audit cannot read",
		"hostile_arm64.s: unsafe: DATA os·Args, a variable of the standard library",
		"macro.h: unsafe: a DATA directive whose symbol a macro gives",
		"macro_amd64.s: unsafe: DATA SYM",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
