package buildcache

import (
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
