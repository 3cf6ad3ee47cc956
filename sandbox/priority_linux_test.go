//go:build linux

package sandbox

import (
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNoPriorityOfOtherProcesses: Linux lets a process renice, change
// the scheduling policy, CPUs and I/O priority of any other process of
// its user, through hooks Landlock does not scope. Without a PID
// namespace, a tool could have put the agent, its parent, at nice 19, in
// SCHED_IDLE or the idle I/O class, or on one CPU (and with PRIO_USER
// every process of the user). Some kernels refuse these already; the
// filter's verdicts are TestFilterVerdictsPriority's.
func TestNoPriorityOfOtherProcesses(t *testing.T) {
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
	nice := func() int {
		n, err := unix.Getpriority(unix.PRIO_PROCESS, pid)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	policy := func() uintptr {
		r, _, e := unix.Syscall(unix.SYS_SCHED_GETSCHEDULER, uintptr(pid), 0, 0)
		if e != 0 {
			t.Fatal(e)
		}
		return r
	}
	var cpus unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &cpus); err != nil {
		t.Fatal(err)
	}
	n0, p0, c0 := nice(), policy(), cpus.Count()
	for _, op := range []string{"nice", "sched", "affinity", "ioprio"} {
		got, err := call(t, p, "r9_other#"+op, tool.Exec|tool.ReadFiles|tool.Unsafe, r9Args{Path: op, N: pid})
		wantErrno(t, op+" of another process", err, "EPERM")
		if err == nil {
			t.Errorf("%s of another process: %s", op, got)
		}
	}
	var after unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &after); err != nil {
		t.Fatal(err)
	}
	if nice() != n0 || policy() != p0 || after.Count() != c0 {
		t.Errorf("the other process: nice %d, policy %d, %d CPUs; was %d, %d, %d", nice(), policy(), after.Count(), n0, p0, c0)
	}
	// The positive control: a tool's own nice value.
	if got, err := call(t, p, "r9_other#self", tool.Unsafe, r9Args{Path: "nice", N: 0}); err != nil || got != "done" {
		t.Errorf("a tool's own priority: %s, %v", got, err)
	}
}
