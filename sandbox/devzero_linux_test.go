//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoSharedZeroMappingWithoutNamespaces: a shared mapping of
// /dev/zero is shared memory (shmem), which the data limit does not
// count. In its namespaces a worker puts /dev/full on /dev/zero
// (TestNoSharedZeroMapping); without them nothing did, and a tool with
// read_files but not exec held 512 MiB that way under a 256 MiB limit,
// kept across calls. Without namespaces such a tool does not open
// /dev/zero; one with exec, whose programs' memory is not bounded
// anyway, still does.
func TestNoSharedZeroMappingWithoutNamespaces(t *testing.T) {
	t.Parallel()
	if raceEnabled {
		t.Skip("no data limit in race-detector builds")
	}
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) { c.NoNamespaces = true; c.Limits.Memory = 256 << 20 })
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r6_mapshared#"+caps.String(), caps, r6Args{Path: "/dev/zero", N: 512})
		wantErrno(t, "/dev/zero, "+caps.String(), err, "EACCES")
		if err == nil {
			t.Errorf("without namespaces, %s: a shared mapping of /dev/zero, 512 MiB under a 256 MiB memory limit: %q", caps, got)
		}
	}
	// The controls: the same tool maps a file of the workspace shared
	// and reads the other memory devices; a tool with exec reads
	// /dev/zero.
	f := filepath.Join(d.work, "data")
	if err := os.WriteFile(f, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := call(t, p, "r6_mapshared#file", tool.ReadFiles|tool.Unsafe, r6Args{Path: f, N: 1}); err != nil || got != "1 MiB read (0)" {
		t.Errorf("a shared mapping of a file: %q, %v; want 1 MiB read (0)", got, err)
	}
	for _, dev := range []string{"/dev/null", "/dev/urandom", "/dev/full"} {
		if _, err := call(t, p, "r7_readdev#dev", tool.ReadFiles|tool.Unsafe, r7Args{Path: dev}); err != nil {
			t.Errorf("reading %s with read_files: %v", dev, err)
		}
	}
	if _, err := call(t, p, "r7_readdev#exec", tool.ReadFiles|tool.Exec|tool.Unsafe, r7Args{Path: "/dev/zero"}); err != nil {
		t.Errorf("reading /dev/zero with read_files and exec: %v", err)
	}
}
