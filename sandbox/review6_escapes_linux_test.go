//go:build linux

package sandbox

import (
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// The escapes of this file were found by a sixth hostile-author review;
// each fails on the code it was written against. The probes are the r6_
// tools of review6_probe_linux_test.go.

// TestNoStackMappingsPastTheLimit: the memory limit (RLIMIT_DATA)
// counts private writable mappings, but not those the kernel takes for
// stack: a private anonymous mapping made with MAP_GROWSDOWN is one, of
// any size, and nothing else bounds it. A tool without exec held 512
// MiB that way under a 64 MiB limit, kept across calls, and could take
// the machine's memory, as shared memory could before it was refused.
func TestNoStackMappingsPastTheLimit(t *testing.T) {
	if raceEnabled {
		t.Skip("no data limit in race-detector builds")
	}
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	// Not under 64 MiB, where a loaded machine's runtime threads may
	// take a worker's whole data limit (see TestSharedMemoryLimited).
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) { c.Limits.Memory = 256 << 20 })
	// The control: the same in ordinary private memory fails.
	if _, err := call(t, p, "alloc", tool.Unsafe, probeArgs{N: 512}); err == nil {
		t.Fatal("512 MiB of private memory under a 256 MiB limit: no error")
	}
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r6_growsdown", caps, r6Args{N: 512})
		wantDenied(t, "a mapping growing down, without exec, "+caps.String(), err)
		if err == nil {
			t.Errorf("%s: 512 MiB under a 256 MiB memory limit: %q", caps, got)
		}
	}
	// The positive control: a tool with exec, whose programs may share
	// memory the limit does not count, may map one.
	if got, err := call(t, p, "r6_growsdown", tool.Exec|tool.Unsafe, r6Args{N: 16}); err != nil || got != "16 MiB touched" {
		t.Errorf("a mapping growing down with exec: %q, %v; want 16 MiB touched", got, err)
	}
}
