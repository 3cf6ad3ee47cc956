//go:build linux

package sandbox

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoOtherProcessesWithoutPIDNamespace: the kernel shows any process
// of the machine the command line and status of any other, with no
// ptrace check for Landlock to scope, and without a PID namespace a
// worker has the machine's /proc: a tool with read_files read the
// agent's command line (where an MCP server's -mcp-header, its
// credentials among them, is given) through /proc/<its parent>/cmdline.
func TestNoOtherProcessesWithoutPIDNamespace(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true })
	agent := "/proc/" + strconv.Itoa(os.Getpid())
	caps := tool.ReadFiles | tool.Exec | tool.Unsafe
	for _, f := range []string{"cmdline", "status", "stat"} {
		got, err := call(t, p, "read", caps, probeArgs{Path: agent + "/" + f})
		wantErrno(t, "the agent's "+f+" without a PID namespace", err, "EACCES")
		if err == nil {
			t.Errorf("the agent's %s: %.60q", f, got)
		}
	}
	// The positive controls: the worker's own directory, and the rest
	// of /proc.
	for _, f := range []string{"/proc/self/status", "/proc/thread-self/stat", "/proc/cpuinfo", "/proc/meminfo", "/proc/sys/kernel/pid_max", "/proc/self/net/dev"} {
		if got, err := call(t, p, "read", caps, probeArgs{Path: f}); err != nil || strings.TrimSpace(got) == "" {
			t.Errorf("%s without a PID namespace: %.60q, %v", f, got, err)
		}
	}
}
