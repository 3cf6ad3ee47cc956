//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestThreadsUnboundedNamedWithoutNamespaces: a worker's threads are
// bounded by RLIMIT_NPROC counted in its own user namespace, and for
// root by its PID namespace's kernel.pid_max. Without namespaces
// neither holds (RLIMIT_NPROC would count every process of the user,
// and root is exempt from it), and a tool with no capability, which may
// only start threads, made 400 under a limit of 256: it could have
// gone on until every process id of the machine (32,768 here) was
// taken, or every process of its user, after which nothing of theirs
// could start a process. The gap was named for a tool with exec only;
// it is named for every tool now (and refused under Require). The test
// holds 400 threads, not the machine's ids.
func TestThreadsUnboundedNamedWithoutNamespaces(t *testing.T) {
	p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true; c.Limits.Memory = -1 })
	const n = 400
	if got, err := call(t, p, "r8_threads#r11", tool.Unsafe, r8Args{N: n}); err != nil {
		t.Logf("%d threads without namespaces: %q, %v", n, got, err)
	} else {
		p.mu.Lock()
		for w := range p.live {
			if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", w.pid())); err == nil {
				t.Logf("without namespaces, a tool with no capability holds %d threads under a limit of %d", len(ents), p.cfg.Limits.Processes)
			}
		}
		p.mu.Unlock()
	}
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		enf, err := p.Enforcement(context.Background(), "t", caps)
		if err != nil {
			t.Fatal(err)
		}
		if m := strings.Join(enf.Missing, "; "); !strings.Contains(m, "threads") {
			t.Errorf("without namespaces, %s: missing %q; want the unbounded threads named", caps, m)
		}
	}
	// In namespaces nothing is named: the bound holds there.
	if !userNamespaces() {
		return
	}
	ns := newPool(t, newDirs(t), nil)
	enf, err := ns.Enforcement(context.Background(), "t", tool.Unsafe)
	if err != nil {
		t.Fatal(err)
	}
	if m := strings.Join(enf.Missing, "; "); strings.Contains(m, "threads") {
		t.Errorf("in namespaces: missing %q; want no thread gap", m)
	}
}
