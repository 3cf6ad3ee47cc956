package audit

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/internal/buildcache"
)

// TestMain has the export data of the host's standard library, in a test
// binary built with -race (or -msan, -asan), listed with the same flag
// where the listing builds as the binary was built: cgo as it was, or
// with the flag's own tag (the instrumented configurations', whatever cgo
// they ask for). The go command then finds the packages go test compiled
// for the test binaries, where without the flag, with an empty build
// cache, it compiled them once more (about a minute of processor time for
// the host's with cgo, 16 s without cgo with the race tag). The listings
// of files are left as they are. The export data built with -race
// differs from a listing without the tag in runtime's Race* functions,
// which it has in addition, and in constants of internal packages
// (internal/race.Enabled), which no program of the tests uses without
// asking for the tag; from one with the tag, in cgo, whose packages'
// exported names are the same. So the audit's findings are the same, and
// a listing of an instrumented configuration that lost its tag is not
// given it here (TestInstrumentedDependency's race case, which calls
// runtime.RaceDisable, fails without exportFlags under -race too).
//
// With the flag, the standard library's types of those configurations
// come from that export data, never made from source (asBuilt): go test
// has built it. Those of the others are made from source, or read from
// the types cache, as without the flag: go/types runs ten times slower
// under the race detector, but with an empty build cache the go command
// compiles the standard library of each such configuration (another
// platform, cgo off, an experiment) in about a minute of processor time,
// where go/types under the race detector makes a platform's in about
// eight seconds. The tests of making them (TestStdFromSourceAsExport,
// TestAuditFromSourceAsExport, TestLoadMakesStdFromSource) skip
// themselves under the flag; .ci/run runs them without it, and the
// memo's concurrency is TestSourceMemo's, which runs under it.
func TestMain(m *testing.M) {
	if flags := buildcache.Flags(); len(flags) > 0 {
		goExports.list = func(ctx context.Context, dir string, env []string, args ...string) ([]*listedPackage, error) {
			if built, ok := asBuilt(env, args, flags); ok {
				return goList(ctx, dir, built, slices.Concat(flags, args)...)
			}
			return goList(ctx, dir, env, args...)
		}
		sourceTypes.make = func(ctx context.Context, dir string, env, exportFlags, paths []string, listed []*listedPackage, cache string) (map[string][]byte, error) {
			if _, ok := asBuilt(env, exportFlags, flags); ok {
				return nil, fmt.Errorf("the test binary's own configuration (%v): go test built its export data", flags)
			}
			return fromSource(ctx, dir, env, exportFlags, paths, listed, cache)
		}
	}
	os.Exit(m.Run())
}

// asBuilt reports whether the go command, run with env and args, builds
// the standard library as this test binary, built with flags, was built
// where flags are added: for its platform with its cgo, or with the tag of
// each flag whatever cgo env asks for. It returns the environment that
// does so: env, or env with CGO_ENABLED the default, as the binary was
// built (-race needs cgo).
func asBuilt(env, args, flags []string) ([]string, bool) {
	withDefault := append(slices.Clone(env), "CGO_ENABLED=")
	switch {
	case buildcache.SameConfig(env):
		return env, true
	case buildcache.SameConfig(withDefault) && instrumentedAs(args, flags):
		return withDefault, true
	}
	return nil, false
}

// instrumentedAs reports whether the go command's args ask, with -tags,
// for the tag of each instrumentation flags give (-race: race).
func instrumentedAs(args, flags []string) bool {
	var tags []string
	for _, a := range args {
		if list, ok := strings.CutPrefix(a, "-tags="); ok {
			tags = append(tags, strings.Split(list, ",")...)
		}
	}
	for _, f := range flags {
		if !slices.Contains(tags, strings.TrimPrefix(f, "-")) {
			return false
		}
	}
	return true
}

// TestHostExportsAsBuilt checks that the export data of the host's
// standard library, listed in this process's environment, comes from the
// go command with the flags this test binary was built with; under -race,
// not from the build without it, which is compiled apart.
func TestHostExportsAsBuilt(t *testing.T) {
	ctx := context.Background()
	env := append(hostEnv(), "TOOLREG_TEST_EXPORT_MEMO="+t.Name())
	pkgs, err := goList(ctx, ".", env, "-deps", "-json="+listFields, "strings")
	if err != nil {
		t.Fatal(err)
	}
	files, errs, err := exportFiles(ctx, ".", gorootOf(pkgs), env, nil, []string{"strings"})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	export := func(flags ...string) string {
		t.Helper()
		pkgs, err := goList(ctx, ".", env, slices.Concat(flags, []string{"-export", "-json=ImportPath,Export,Error", "strings"})...)
		if err != nil || len(pkgs) != 1 || pkgs[0].Export == "" {
			t.Fatalf("go list %q -export strings: %v (%d packages)", flags, err, len(pkgs))
		}
		return pkgs[0].Export
	}
	flags := buildcache.Flags()
	if want := export(flags...); files["strings"] != want {
		t.Errorf("the export data of strings: %s, want %s (go list %q)", files["strings"], want, flags)
	}
	if len(flags) > 0 {
		if plain := export(); plain == files["strings"] {
			t.Errorf("the export data of strings built with %q is the same file as without: %s", flags, plain)
		}
	}
}
