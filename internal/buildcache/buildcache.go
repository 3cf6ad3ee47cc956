// Package buildcache is for tests that build programs with the go
// command: their builds find in the build cache what go test compiled,
// and what the same build compiled in an earlier run.
package buildcache

import (
	"runtime/debug"
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
