//go:build linux

package sandbox

import (
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNoLimitsOfOtherProcesses: the kernel lets a process set the
// resource limits of any other process of its user (prlimit64), with
// no ptrace check for Landlock to scope. Without a PID namespace, a tool
// with no capability set the descriptor limit of another process of the
// agent's user to 1: the agent, its parent, would open no file and no
// connection after (or, with RLIMIT_CPU, be killed).
func TestNoLimitsOfOtherProcesses(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true })
	victim := exec.Command("sleep", "60")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = victim.Process.Kill(); _ = victim.Wait() }()
	pid := victim.Process.Pid
	var before unix.Rlimit
	if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, nil, &before); err != nil {
		t.Fatal(err)
	}
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Exec | tool.Unsafe} {
		got, err := call(t, p, "r9_other#"+caps.String(), caps, r9Args{Path: "prlimit", N: pid})
		wantErrno(t, "the limits of another process, "+caps.String(), err, "EPERM")
		var after unix.Rlimit
		if e := unix.Prlimit(pid, unix.RLIMIT_NOFILE, nil, &after); e != nil || after != before {
			t.Errorf("%s: %s; the other process's descriptor limit is %v, was %v", caps, got, after, before)
		}
	}
	// The positive control: a tool's own limits.
	if got, err := call(t, p, "r9_other#self", tool.Unsafe, r9Args{Path: "prlimit", N: 0}); err != nil || got != "done" {
		t.Errorf("a tool's own limits: %s, %v", got, err)
	}
}
