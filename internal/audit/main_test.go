package audit

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/internal/buildcache"
)

// TestMain has the export data of the host's standard library with cgo,
// in a test binary built with -race (or -msan, -asan), listed with the
// same flag: the go command then finds the packages go test compiled for
// the test binaries, where without it, with an empty build cache, it
// compiled them once more, about a minute of processor time. The flag
// changes the code the compiler makes, not the packages' types, which are
// all the audit reads of them; the listings of files are left as they
// are.
func TestMain(m *testing.M) {
	if flags := buildcache.Flags(); len(flags) > 0 {
		stdExports.list = func(ctx context.Context, dir string, env []string, args ...string) ([]*listedPackage, error) {
			if hostWithCgo(env) {
				args = append(slices.Clone(flags), args...)
			}
			return goList(ctx, dir, env, args...)
		}
	}
	os.Exit(m.Run())
}

// hostWithCgo reports whether the go command run with env builds for
// this platform with cgo, as go test built this binary.
func hostWithCgo(env []string) bool {
	v := map[string]string{"GOOS": runtime.GOOS, "GOARCH": runtime.GOARCH, "CGO_ENABLED": "1"}
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok {
			if _, want := v[k]; want {
				v[k] = val
			}
		}
	}
	return v["GOOS"] == runtime.GOOS && v["GOARCH"] == runtime.GOARCH && v["CGO_ENABLED"] == "1"
}

func TestHostWithCgo(t *testing.T) {
	host := []string{"GOOS=" + runtime.GOOS, "GOARCH=" + runtime.GOARCH}
	other := "GOOS=plan9"
	if runtime.GOOS == "plan9" {
		other = "GOOS=linux"
	}
	for _, c := range []struct {
		name string
		env  []string
		want bool
	}{
		{"nothing set", nil, true},
		{"the host, cgo unset", host, true},
		{"the host, cgo on", append(host, "CGO_ENABLED=1"), true},
		{"the host, cgo off", append(host, "CGO_ENABLED=0"), false},
		{"cgo off, then on", append(host, "CGO_ENABLED=0", "CGO_ENABLED=1"), true},
		{"cgo on, then off", append(host, "CGO_ENABLED=1", "CGO_ENABLED=0"), false},
		{"another system", append(host, other, "CGO_ENABLED=1"), false},
		{"another architecture", append(host, "GOARCH=wasm", "CGO_ENABLED=1"), false},
		{"another, then the host", append([]string{other}, host...), true},
	} {
		if got := hostWithCgo(c.env); got != c.want {
			t.Errorf("%s: hostWithCgo(%q) = %v, want %v", c.name, c.env, got, c.want)
		}
	}
}

// TestHostExportsAsBuilt checks that the export data of the host's
// standard library with cgo comes from the go command with the flags this
// test binary was built with; under -race, not from the build without it,
// which is compiled apart.
func TestHostExportsAsBuilt(t *testing.T) {
	ctx := context.Background()
	env := append(hostEnv(), "CGO_ENABLED=1", "TOOLREG_TEST_EXPORT_MEMO="+t.Name())
	pkgs, err := goList(ctx, ".", env, "-deps", "-json="+listFields, "strings")
	if err != nil {
		t.Fatal(err)
	}
	files, errs, err := exportFiles(ctx, ".", gorootOf(pkgs), env, []string{"strings"})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	export := func(flags ...string) string {
		t.Helper()
		pkgs, err := goList(ctx, ".", env, append(flags, "-export", "-json=ImportPath,Export,Error", "strings")...)
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
