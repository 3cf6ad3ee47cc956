//go:build !unix

package buildcache

import "testing"

// Dir returns a new temporary directory for a module a test writes and
// builds, and trimpath true: a build there needs -trimpath, which leaves
// the directory out of the build cache's keys (see the unix version,
// which returns the same directory each run).
func Dir(t testing.TB, name string) (dir string, trimpath bool) {
	return t.TempDir(), true
}
