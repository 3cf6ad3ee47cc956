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
	var flags []string
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "-race", "-msan", "-asan":
			if s.Value == "true" {
				flags = append(flags, s.Key)
			}
		}
	}
	return flags
}

// SameConfig reports whether the go command, run with env (a later entry
// for a variable wins, as in os/exec; an empty one is the default), builds
// for this binary's GOOS and GOARCH with its CGO_ENABLED: then Flags make
// it find the packages go test compiled for this binary.
func SameConfig(env []string) bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	built := map[string]string{}
	for _, s := range bi.Settings {
		switch s.Key {
		case "GOOS", "GOARCH", "CGO_ENABLED":
			built[s.Key] = s.Value
		}
	}
	if len(built) != 3 {
		return false
	}
	set := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if _, known := built[k]; known {
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
