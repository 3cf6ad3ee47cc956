package audit

import (
	"context"
	"fmt"
	"go/build"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
)

// execRun is a file body whose run starts a program.
const execRun = "\n\npackage tool\n\nimport \"syscall\"\n\nfunc run() string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n"

// plainRun is a file body whose run does nothing.
const plainRun = "\n\npackage tool\n\nfunc run() string { return \"\" }\n"

// TestTagCombinations checks that a file the go command builds with a
// combination of the tool module's tags, with cgo off, or on another
// platform, is audited: tags were audited one at a time, on the host,
// with cgo, so each probe here reached nothing (docs/audit.md named them
// as known). CGO_ENABLED=0 go build -tags netgo,osusergo, the usual static
// build, is such a combination.
func TestTagCombinations(t *testing.T) {
	t.Parallel()
	host := []Platform{{runtime.GOOS, runtime.GOARCH}}
	for _, c := range []struct {
		name      string
		files     map[string]string
		platforms []Platform
	}{
		{"a tag without cgo", map[string]string{
			"tool/run.go":  "//go:build !(audittag && !cgo)" + plainRun,
			"tool/evil.go": "//go:build audittag && !cgo" + execRun,
		}, host},
		{"two tags", map[string]string{
			"tool/run.go":  "//go:build !(audittag && auditother)" + plainRun,
			"tool/evil.go": "//go:build audittag && auditother" + execRun,
		}, host},
		{"two tags through a variable", map[string]string{
			// Each tag alone builds a program that does nothing.
			"tool/hook.go":   "//go:build audittag\n\npackage tool\n\nimport \"syscall\"\n\nvar hook = func() { _ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil) }\n",
			"tool/nohook.go": "//go:build !audittag\n\npackage tool\n\nvar hook = func() {}\n",
			"tool/run.go":    "//go:build auditother\n\npackage tool\n\nfunc run() string {\n\thook()\n\treturn \"\"\n}\n",
			"tool/norun.go":  "//go:build !auditother" + plainRun,
		}, host},
		{"a tag of a package that only another tag imports", map[string]string{
			// The first listing holds no file for auditother: only the
			// configurations with audittag list the package extra.
			"tool/run.go":        "//go:build !audittag" + plainRun,
			"tool/extra.go":      "//go:build audittag\n\npackage tool\n\nimport \"example.com/tools/extra\"\n\nfunc run() string { return extra.Run() }\n",
			"extra/run.go":       "//go:build !auditother\n\npackage extra\n\n// Run does nothing.\nfunc Run() string { return \"\" }\n",
			"extra/run_other.go": "//go:build auditother\n\npackage extra\n\nimport \"syscall\"\n\n// Run starts a program.\nfunc Run() string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n",
		}, host},
		{"a tag and an instrumentation", map[string]string{
			// The combinations of audittag chose the same files as none
			// when the signature left the race tag out (found in review
			// of 860b980).
			"tool/run.go":  "//go:build !(audittag && race)" + plainRun,
			"tool/evil.go": "//go:build audittag && race" + execRun,
		}, host},
		{"a tag of a package only an instrumentation imports", map[string]string{
			// The configurations with the race tag were added after the
			// tags were combined, and their files' tags never were.
			"tool/run.go":        "//go:build !race" + plainRun,
			"tool/extra.go":      "//go:build race\n\npackage tool\n\nimport \"example.com/tools/extra\"\n\nfunc run() string { return extra.Run() }\n",
			"extra/run.go":       "//go:build !auditother\n\npackage extra\n\n// Run does nothing.\nfunc Run() string { return \"\" }\n",
			"extra/run_other.go": "//go:build auditother\n\npackage extra\n\nimport \"syscall\"\n\n// Run starts a program.\nfunc Run() string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n",
		}, host},
		{"cgo and a tag, where cgo does not load", map[string]string{
			"tool/a_cgo.go": "package tool\n\nimport \"C\"\n\nimport _ \"example.com/tools/missing\"\n",
			"tool/run.go":   "//go:build !(cgo && audittag)" + plainRun,
			"tool/evil.go":  "//go:build cgo && audittag" + execRun,
		}, host},
		{"a tag on another platform", map[string]string{
			"tool/run.go":  "//go:build !(audittag && darwin)" + plainRun,
			"tool/evil.go": "//go:build audittag && darwin" + execRun,
		}, append(host, Platform{"darwin", "arm64"})},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got, want := platformsReach(t, probeModule(c.files), c.platforms), tool.Exec; got != want {
				t.Errorf("the probe reaches %s, want %s", got, want)
			}
		})
	}
}

// TestCombinedConfigurations checks the configurations combine adds on
// the host: of the combinations of the main module's tags (and of -tags
// cgo where cgo is off) that compile the same files among those that
// name a tag, the first; and the bounds on the tags it combines and the
// configurations it adds, at, below and past each.
func TestCombinedConfigurations(t *testing.T) {
	t.Parallel()
	host := runtime.GOOS + "/" + runtime.GOARCH
	tagFile := func(expr string) string { return "//go:build " + expr + "\n\npackage tool\n" }
	twoTags := map[string]string{"tool/a.go": tagFile("audita"), "tool/b.go": tagFile("auditb")}
	many := func(n int) string {
		var names []string
		for i := range n {
			names = append(names, fmt.Sprintf("audittag%d", i))
		}
		return strings.Join(names, " || ")
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		limit bounds
		want  []string // the configurations added, sorted
		err   string
	}{
		{"no tag", nil, bounds{maxConfigs, maxPrograms}, []string{"no cgo -tags cgo"}, ""},
		{"a file for two tags", map[string]string{"tool/ab.go": tagFile("audita && auditb")}, bounds{maxConfigs, maxPrograms}, []string{
			"cgo -tags audita,auditb",
			"no cgo -tags audita,auditb",
			"no cgo -tags audita,auditb,cgo",
			"no cgo -tags cgo",
		}, ""},
		{"a file for cgo and a tag", map[string]string{"tool/a.go": tagFile("audita && cgo")}, bounds{maxConfigs, maxPrograms}, []string{
			"cgo -tags audita",
			"no cgo -tags audita,cgo",
			"no cgo -tags cgo",
		}, ""},
		{"a file for a tag and an instrumentation", map[string]string{"tool/a.go": tagFile("audita && race")}, bounds{maxConfigs, maxPrograms}, []string{
			"cgo -tags audita,race",
			"cgo -tags race",
			"no cgo -tags audita,cgo,race",
			"no cgo -tags audita,race",
			"no cgo -tags cgo",
			"no cgo -tags cgo,race",
			"no cgo -tags race",
		}, ""},
		{"files of two tags, at both bounds", twoTags, bounds{10, 4}, []string{
			"cgo -tags audita",
			"cgo -tags audita,auditb",
			"cgo -tags auditb",
			"no cgo -tags audita",
			"no cgo -tags audita,auditb",
			"no cgo -tags audita,auditb,cgo",
			"no cgo -tags audita,cgo",
			"no cgo -tags auditb",
			"no cgo -tags auditb,cgo",
			"no cgo -tags cgo",
		}, ""},
		{"a configuration too many", twoTags, bounds{9, 4}, nil,
			"make more than 9 configurations"},
		{"a program too many", twoTags, bounds{10, 3}, nil,
			"make 4 programs that compile different files, more than the 3"},
		{"the most tags", map[string]string{"tool/a.go": tagFile(many(maxTags))}, bounds{maxConfigs, maxPrograms}, []string{
			"cgo -tags audittag0",
			"no cgo -tags audittag0",
			"no cgo -tags audittag0,cgo",
			"no cgo -tags cgo",
		}, ""},
		{"a tag too many", map[string]string{"tool/a.go": tagFile(many(maxTags + 1))}, bounds{maxConfigs, maxPrograms}, nil,
			fmt.Sprintf("use %d build tags (audittag0, audittag1, ", maxTags+1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files := map[string]string{"go.mod": "module example.com/tools\n\ngo 1.26\n", "tool/tool.go": probeTool, "tool/run.go": plainRun[2:]}
			maps.Copy(files, c.files)
			writeFiles(t, dir, files)
			ps, err := load(context.Background(), filepath.Join(dir, "tool"), []Platform{{runtime.GOOS, runtime.GOARCH}}, c.limit, originSource)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("load: %v, want an error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, cand := range ps.cands {
				if len(cand.config.Tags) > 0 {
					got = append(got, strings.TrimPrefix(cand.config.String(), host+" "))
				}
			}
			slices.Sort(got)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("configurations with tags (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExperimentOff checks that a file for the absence of a GOEXPERIMENT
// the toolchain turns on by default (!goexperiment.greenteagc), which
// GOEXPERIMENT=nogreenteagc builds, is audited: -tags cannot unset the
// tag, and the configuration with it compiled the same files as without
// (docs/audit.md named it as known), so the probe reached nothing.
func TestExperimentOff(t *testing.T) {
	t.Parallel()
	tag := "goexperiment.greenteagc"
	if !slices.Contains(build.Default.ToolTags, tag) {
		// Another release's: the first experiment on by default that
		// the standard library builds without.
		i := slices.IndexFunc(build.Default.ToolTags, func(t string) bool {
			return strings.HasPrefix(t, "goexperiment.") && !strings.HasPrefix(t, "goexperiment.regabi")
		})
		if i < 0 {
			t.Fatalf("no GOEXPERIMENT on by default in %v", build.Default.ToolTags)
		}
		tag = build.Default.ToolTags[i]
	}
	files := map[string]string{
		"go.mod":       "module example.com/tools\n\ngo 1.26\n",
		"tool/tool.go": probeTool,
		"tool/run.go":  "//go:build " + tag + plainRun,
		"tool/evil.go": "//go:build !" + tag + execRun,
	}
	if got, want := hostReaches(t, files), tool.Exec; got != want {
		t.Errorf("the probe reaches %s, want %s (evil.go, for !%s)", got, want, tag)
	}
}

// TestExperimentOnInTheEnvironment checks that the experiments the go
// command turns on, not those toolgen was built with, decide: with
// GOEXPERIMENT=arenas in the environment, set after this process read
// its own, a file for !goexperiment.arenas is compiled by
// GOEXPERIMENT=noarenas alone. The audit took go/build's tags of its own
// process for the go command's, and the probe reached nothing (found in
// review of 6aeb9e2, with a toolgen of one release and a go command of
// the next, where jsonv2 is on by default).
func TestExperimentOnInTheEnvironment(t *testing.T) {
	t.Setenv("GOEXPERIMENT", "arenas")
	files := map[string]string{
		"go.mod":       "module example.com/tools\n\ngo 1.26\n",
		"tool/tool.go": probeTool,
		"tool/run.go":  "//go:build goexperiment.arenas" + plainRun,
		"tool/evil.go": "//go:build !goexperiment.arenas" + execRun,
	}
	if got, want := hostReaches(t, files), tool.Exec; got != want {
		t.Errorf("the probe reaches %s, want %s (evil.go, for !goexperiment.arenas)", got, want)
	}
}

// deepConst declares a constant nested deeper than go/parser goes
// (100,000 levels), which the compiler builds.
var deepConst = "\nconst deep = " + strings.Repeat("(", 100_010) + "1" + strings.Repeat(")", 100_010) + "\n"

// TestBuiltFileThatDoesNotLoad checks that a configuration the audit
// cannot load, though the go command builds it, fails the audit, where it
// was skipped as one that does not build (found in review of 5267ce1): an
// expression nested deeper than go/parser goes, which the compiler takes,
// in a file for a tag, and in a file for another platform, whose
// configuration without cgo is the one audited there.
func TestBuiltFileThatDoesNotLoad(t *testing.T) {
	t.Parallel()
	deep := deepConst
	host := []Platform{{runtime.GOOS, runtime.GOARCH}}
	for _, c := range []struct {
		name      string
		files     map[string]string
		platforms []Platform
		long      bool // compiles the deep file for another platform, with cgo, or with an assembly file
		want      string
	}{
		{"a file for a tag", map[string]string{
			"tool/run.go":  "//go:build !audittag" + plainRun,
			"tool/evil.go": "//go:build audittag" + execRun + deep,
		}, host, false, "and the go command builds"},
		{"a file for another platform", map[string]string{
			"tool/run.go":         "//go:build !darwin" + plainRun,
			"tool/evil_darwin.go": execRun[2:] + deep,
		}, append(host, Platform{"darwin", "arm64"}), true, "and the go command builds"},
		// The program of cgo -tags audittag is that of no cgo -tags
		// audittag,cgo, made first, which no build has: with -tags cgo
		// and cgo off the standard library's net does not compile, and
		// the go command was asked of that configuration alone (found
		// in review of f07b2cb).
		{"a file for a tag and cgo that imports net", map[string]string{
			"tool/run.go":  "//go:build !(audittag && cgo)" + plainRun,
			"tool/evil.go": "//go:build audittag && cgo\n\npackage tool\n\nimport (\n\t_ \"net\"\n\t\"syscall\"\n)\n\nfunc run() string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n" + deep,
		}, host, true, "and the go command builds"},
		// The go command's build fails for want of a header of this
		// machine's, not in the Go files: that proves nothing, and the
		// program was skipped (found in review of b149745).
		{"an assembly file whose header is not here", map[string]string{
			"tool/run.go":                     "//go:build !audittag" + plainRun,
			"tool/evil.go":                    "//go:build audittag" + strings.Replace(execRun, "return \"\"", "f()\n\treturn \"\"", 1) + "\nfunc f()\n" + deep,
			"tool/f_" + runtime.GOARCH + ".s": "//go:build audittag\n\n#include \"/nonexistent/toolreg_probe.h\"\n\nTEXT ·f(SB),0,$0\n\tRET\n",
		}, host, true, "not in its Go files alone"},
		// A configuration with an instrumentation whose files do not
		// load was a note alone, unasked (older; found in the same
		// review): here cgo -tags race, a program of its own, since the
		// file for cgo needs the one that imports "C".
		{"a file for race and cgo", map[string]string{
			"tool/run.go":   "//go:build !(race && cgo)" + plainRun,
			"tool/c_cgo.go": "package tool\n\n// int f(void) { return 0; }\nimport \"C\"\n\nfunc f() int { return int(C.f()) }\n",
			"tool/use.go":   "//go:build cgo\n\npackage tool\n\nvar _ = f()\n",
			"tool/evil.go":  "//go:build race && cgo" + execRun + deep,
		}, host, true, "and the go command builds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long case, which the full test command runs")
			}
			t.Parallel()
			rep, err := analyzeFiles(t, probeModule(c.files), c.platforms)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("AnalyzeAll: %v, report %v; want an error with %q", err, rep, c.want)
			}
		})
	}
}

// TestUnbuiltCombinationSkipped checks the other side: a combination of
// tags that the go command does not build either (two files that declare
// one name) is skipped, and the others are audited.
func TestUnbuiltCombinationSkipped(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"go.mod":       "module example.com/tools\n\ngo 1.26\n",
		"tool/tool.go": probeTool,
		"tool/run.go":  "package tool\n\nfunc run() string { return mode() }\n",
		"tool/a.go":    "//go:build audita\n\npackage tool\n\nfunc mode() string { return \"a\" }\n",
		"tool/b.go":    "//go:build auditb" + strings.Replace(execRun, "func run()", "func mode()", 1),
		"tool/none.go": "//go:build !audita && !auditb\n\npackage tool\n\nfunc mode() string { return \"\" }\n",
	}
	if got, want := hostReaches(t, files), tool.Exec; got != want {
		t.Errorf("the probe reaches %s, want %s (b.go, with auditb alone)", got, want)
	}
}

// TestCgoElsewhereNotSkipped checks the configurations of a program that
// does not load which this host cannot ask the go command of: cgo for
// another platform, whose build here fails for want of a C cross-compiler
// whatever its files, is not audited, and says so, where it was skipped
// as one that does not build (found in review of c0dd88a: darwin/arm64
// cgo -tags audittag had the program of darwin/arm64 no cgo -tags
// audittag,cgo, where plugin does not compile).
func TestCgoElsewhereNotSkipped(t *testing.T) {
	if testing.Short() {
		t.Skip("a long test (a file nested 100,010 deep, compiled for another platform), which the full test command runs")
	}
	t.Parallel()
	rep, err := analyzeFiles(t, map[string]string{
		"go.mod":              "module example.com/tools\n\ngo 1.26\n",
		"tool/tool.go":        probeTool,
		"tool/run.go":         "//go:build !(audittag && cgo && darwin)" + plainRun,
		"tool/evil_darwin.go": "//go:build audittag && cgo\n\npackage tool\n\nimport (\n\t_ \"plugin\"\n\t\"syscall\"\n)\n\nfunc run() string {\n\t_ = syscall.Exec(\"/usr/bin/id\", []string{\"id\"}, nil)\n\treturn \"\"\n}\n" + deepConst,
	}, []Platform{{runtime.GOOS, runtime.GOARCH}, {"darwin", "arm64"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rep.Unaudited, func(s string) bool {
		return strings.HasPrefix(s, "darwin/arm64 cgo -tags audittag (no C cross-compiler")
	}) {
		t.Errorf("unaudited: %q; want darwin/arm64 cgo -tags audittag named", rep.Unaudited)
	}
}

// TestCgoFailureFails checks that a configuration with cgo that the go
// command lists, and then fails to run cgo for on this machine (a C
// header it lacks), fails the audit: it may build where the header is,
// and was skipped as one that does not build when the go command listed
// it (a constraint the deriver cannot evaluate, !audit.x, has it list
// every configuration; found in review of c0dd88a).
func TestCgoFailureFails(t *testing.T) {
	t.Parallel()
	_, err := analyzeFiles(t, map[string]string{
		"go.mod":        "module example.com/tools\n\ngo 1.26\n",
		"tool/tool.go":  probeTool,
		"tool/c_cgo.go": "package tool\n\n// #include <toolreg_probe_missing.h>\n// static int f(void) { return PROBE; }\nimport \"C\"\n\nfunc f() int { return int(C.f()) }\n",
		"tool/run.go":   "//go:build !cgo" + plainRun,
		"tool/evil.go":  "//go:build cgo" + strings.Replace(execRun, "return \"\"", "return string(rune(f()))", 1),
		"tool/x.go":     "//go:build !audit.x\n\npackage tool\n",
	}, []Platform{{runtime.GOOS, runtime.GOARCH}})
	if err == nil || !strings.Contains(err.Error(), "running cgo") {
		t.Fatalf("AnalyzeAll: %v; want an error naming cgo's failure", err)
	}
}

// TestGoErrorsOnly checks which failed builds count as the compiler
// refusing Go files, the only proof that a configuration does not build.
func TestGoErrorsOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		out  string
		want bool
	}{
		{"# example.com/tools/tool\n./evil.go:5:9: undefined: x\n", true},
		{"# example.com/tools/tool\ntool/a.go:5: syntax error\n\tmore\n./b.go:1:1: too many errors\ntoo many errors\n", true},
		{"# example.com/tools/tool\n./f_amd64.s:2: #include: open /nonexistent/h.h: no such file or directory\n", false},
		{"# example.com/tools/tool\n./evil.go:5:9: undefined: x\n./f_amd64.s:2: #include: open h.h: no such file\n", false},
		{"# runtime/cgo\ngcc: error: unrecognized option\n", false},
		{"go: unknown GOEXPERIMENT x\n", false},
		{"", false},
	} {
		if got := goErrorsOnly(c.out); got != c.want {
			t.Errorf("goErrorsOnly(%q) = %v, want %v", c.out, got, c.want)
		}
	}
}
