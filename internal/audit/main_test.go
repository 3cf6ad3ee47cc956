package audit

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/toolreg/toolreg/internal/buildcache"
)

// TestMain has the export data of the host's standard library, in a test
// binary built with -race (or -msan, -asan), listed with the same flag
// and with cgo as the binary was built, whatever cgo the listing asked
// for: the go command then finds the packages go test compiled for the
// test binaries, where without the flag, with an empty build cache, it
// compiled them once more for each (about a minute of processor time with
// cgo, 13 s and 16 s without it, and without it with the race tag, which
// the audit's instrumented configurations list). The listings of files
// are left as they are. The export data built with -race differs in
// runtime's Race* functions, which it has in addition, and in constants of
// internal packages (internal/race.Enabled); with cgo, in unexported
// names of the packages with cgo's files (net, os/user) and in
// runtime/cgo, which a listing without cgo does not ask for. No program
// of the tests uses them, so the audit's findings are the same.
func TestMain(m *testing.M) {
	if flags := buildcache.Flags(); len(flags) > 0 {
		stdExports.list = func(ctx context.Context, dir string, env []string, args ...string) ([]*listedPackage, error) {
			// An empty CGO_ENABLED is the default, as the binary was
			// built: -race needs cgo.
			if asBuilt := append(slices.Clone(env), "CGO_ENABLED="); buildcache.SameConfig(asBuilt) {
				args = slices.Concat(flags, args)
				env = asBuilt
			}
			return goList(ctx, dir, env, args...)
		}
	}
	os.Exit(m.Run())
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
