package buildcache

import (
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
)

// raceEnabled is set by race_test.go under -race.
var raceEnabled bool

func TestFlags(t *testing.T) {
	got := Flags()
	if want := raceEnabled; slices.Contains(got, "-race") != want {
		t.Errorf("Flags() = %q; built with -race: %v", got, want)
	}
}

func TestSameConfig(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information in the test binary")
	}
	cgo := ""
	for _, s := range bi.Settings {
		if s.Key == "CGO_ENABLED" {
			cgo = s.Value
		}
	}
	other := map[string]string{"0": "1", "1": "0"}[cgo]
	if other == "" {
		t.Fatalf("the test binary's CGO_ENABLED is %q, want 0 or 1", cgo)
	}
	host := []string{"GOOS=" + runtime.GOOS, "GOARCH=" + runtime.GOARCH}
	otherOS := "GOOS=plan9"
	if runtime.GOOS == "plan9" {
		otherOS = "GOOS=linux"
	}
	for _, c := range []struct {
		name string
		env  []string
		want bool
	}{
		{"nothing set", nil, true},
		{"the host, cgo unset", host, true},
		{"the host, cgo as built", append(host, "CGO_ENABLED="+cgo), true},
		{"the host, cgo empty", append(host, "CGO_ENABLED="), true},
		{"the host, cgo not as built", append(host, "CGO_ENABLED="+other), false},
		{"cgo not as built, then as built", append(host, "CGO_ENABLED="+other, "CGO_ENABLED="+cgo), true},
		{"cgo as built, then not", append(host, "CGO_ENABLED="+cgo, "CGO_ENABLED="+other), false},
		{"cgo not as built, then empty", append(host, "CGO_ENABLED="+other, "CGO_ENABLED="), true},
		{"another system", append(host, otherOS), false},
		{"another architecture", append(host, "GOARCH=wasm"), false},
		{"another system, then the host", append([]string{otherOS}, host...), true},
		{"other variables", []string{"GOFLAGS=-race", "PATH=/bin"}, true},
	} {
		if got := SameConfig(c.env); got != c.want {
			t.Errorf("%s: SameConfig(%q) = %v, want %v", c.name, c.env, got, c.want)
		}
	}
}
