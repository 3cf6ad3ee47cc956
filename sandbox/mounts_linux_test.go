//go:build linux

package sandbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoMountTableWithoutReadFiles: listmount(2) and statmount(2)
// (Linux 6.8) list the mounts of the caller's mount namespace, a copy
// of the machine's, and give each one's mount point, source and
// options, where Landlock sees no path. A tool with no capability,
// which cannot read /proc/self/mountinfo, read them: the home
// directories, volumes and network shares mounted, by path, and what
// they are mounted from: 23 mounts in its namespaces, 20 without.
// Without read_files both answer ENOSYS.
func TestNoMountTableWithoutReadFiles(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	for _, noNS := range []bool{false, true} {
		p := newPool(t, newDirs(t), func(cfg *Config) { cfg.NoNamespaces = noNS })
		for _, caps := range []tool.Capability{tool.Unsafe, tool.Network | tool.Env | tool.Unsafe, tool.Exec | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
			got, err := call(t, p, "r12_mounts#"+caps.String(), caps, r9Args{})
			wantErrno(t, fmt.Sprintf("listmount, %s, without namespaces %v", caps, noNS), err, "ENOSYS")
			if err == nil {
				t.Errorf("without namespaces %v, %s: the mount table read: %.300s", noNS, caps, got)
			}
		}
		// With read_files, the mount table is /proc/self/mountinfo's:
		// the calls stay.
		if _, err := call(t, p, "r12_mounts#read", tool.ReadFiles|tool.Unsafe, r9Args{}); err != nil && strings.HasSuffix(err.Error(), "ENOSYS") {
			t.Errorf("without namespaces %v, read_files: %v", noNS, err)
		}
	}
}
