// Package buildcache is for tests that build programs with the go
// command: their builds find in the build cache what go test compiled,
// and what the same build compiled in an earlier run.
package buildcache

import (
	"runtime/debug"
	"strings"
)

// Flags returns the flags of the go command that built this binary which
// decide how every package is compiled: -race, -msan and -asan. A test
// binary built by go test -race that builds a program without -race
// compiles the standard library and every dependency again where the
// cache is empty.
func Flags() []string {
	built := settings()
	var flags []string
	for _, f := range []string{"-race", "-msan", "-asan"} {
		if built[f] == "true" {
			flags = append(flags, f)
		}
	}
	return flags
}

// SameConfig reports whether the go command, run with env (a later entry
// for a variable wins, as in os/exec; an empty one is the default), builds
// for this binary's GOOS and GOARCH with its CGO_ENABLED: then Flags make
// it find the packages go test compiled for this binary.
func SameConfig(env []string) bool {
	built := settings()
	set := map[string]string{}
	for _, k := range []string{"GOOS", "GOARCH", "CGO_ENABLED"} {
		if built[k] == "" {
			return false
		}
	}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			switch k {
			case "GOOS", "GOARCH", "CGO_ENABLED":
				set[k] = v
			}
		}
	}
	for k, v := range set {
		if v != "" && v != built[k] {
			return false
		}
	}
	return true
}

// settings returns the build settings of this binary, nil when it has
// no build information.
func settings() map[string]string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	m := map[string]string{}
	for _, s := range bi.Settings {
		m[s.Key] = s.Value
	}
	return m
}
