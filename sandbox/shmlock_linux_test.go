//go:build linux

package sandbox

import (
	"fmt"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoSharedMemoryLocked: a System V segment locked in memory
// (shmctl's SHM_LOCK) is counted against the locked memory of the
// user, every process of the user together, and stays locked while
// the segment lives, past the worker where there is no IPC namespace
// of its own. A tool with exec locked 8,388,608 bytes, its user
// namespace's limit, and another worker 1,048,576 more; without
// namespaces it locked all of its user's 8 MiB, and another worker's
// first lock was refused (ENOMEM). SHM_LOCK is refused to every tool.
func TestNoSharedMemoryLocked(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	for _, noNS := range []bool{false, true} {
		p := newPool(t, newDirs(t), func(cfg *Config) { cfg.NoNamespaces = noNS })
		caps := tool.Exec | tool.Unsafe
		got, err := call(t, p, "r12_shmlock", caps, r9Args{N: 16})
		wantErrno(t, fmt.Sprint("SHM_LOCK, without namespaces ", noNS), err, "EPERM")
		if err == nil {
			other, oerr := call(t, p, "r12_shmlock#other", caps, r9Args{N: 1})
			t.Errorf("without namespaces %v: shared memory locked: %s; another worker's then: %q, %v", noNS, got, other, oerr)
			call(t, p, "r12_shmlock#other", caps, r9Args{Path: "free"})
		}
		call(t, p, "r12_shmlock", caps, r9Args{Path: "free"})
	}
}
