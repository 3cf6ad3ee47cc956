//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoInotifyInstancesWithoutReadFiles: the kernel counts inotify instances per
// user, machine-wide (128 by default). In its namespaces a worker holds
// a 32nd of them (boundWatches); where workers run without namespaces
// nothing bounded them, and a tool with no capability made as many as
// it liked and kept them: all 128 of its user's, after which the agent
// and every other program of the user got EMFILE from inotify_init1.
// An instance without a watch sees nothing, and a tool without
// read_files adds no watch: it makes none. The test asks for one more
// than a worker in namespaces may hold, not for all of the user's.
func TestNoInotifyInstancesWithoutReadFiles(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	limit, ok := readSysctl("/proc/sys/fs/inotify/max_user_instances")
	if !ok {
		t.Skip("no inotify here")
	}
	n := max(limit/userShare, 1) + 1
	d := newDirs(t)
	for _, ns := range []bool{false, true} {
		if ns && !userNamespaces() {
			continue
		}
		p := newPool(t, d, func(c *Config) { c.NoNamespaces = !ns })
		for _, caps := range []tool.Capability{tool.Unsafe, tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
			got, err := call(t, p, fmt.Sprint("r11_inotify#", caps, ns), caps, r9Args{N: n})
			wantErrno(t, fmt.Sprintf("inotify instances, %s, namespaces %t", caps, ns), err, "EPERM")
			if err == nil {
				t.Errorf("%s, namespaces %t: inotify instances: %s (of the user's %d)", caps, ns, got, limit)
			}
		}
		// The positive control: a tool that reads files watches its
		// workspace and sees a file made there.
		caps := tool.ReadFiles | tool.WriteFiles | tool.Unsafe
		if got, err := call(t, p, fmt.Sprint("r11_watch#", ns), caps, r9Args{Path: d.work}); err != nil || got != "seen" {
			t.Errorf("namespaces %t: a tool with read_files watching its workspace: %q, %v", ns, got, err)
		}
		// Without namespaces it may make as many as it likes, which its
		// enforcement names.
		enf, err := p.Enforcement(context.Background(), "w", tool.ReadFiles|tool.Unsafe)
		if err != nil {
			t.Fatal(err)
		}
		if named := strings.Contains(strings.Join(enf.Missing, "; "), "inotify"); named == ns {
			t.Errorf("namespaces %t, a tool with read_files: missing %q; want the inotify gap named only without namespaces", ns, enf.Missing)
		}
	}
}
