//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNothingRunsBetweenCalls: a tool left a loop running after its call
// returned, and its idle worker spent the machine's processor on it for
// as long as the pool kept it (a minute after each call): work the user
// did not see, with whatever the tool may do. The pool stops an idle
// worker (SIGSTOP to its group) pauseAfter after its call and continues
// it for the next. The cases run side by side: each has a pool of its
// own, and a stopped worker's processor time does not depend on the
// machine's load. Without namespaces a program a tool started outlives
// its call: it is in the worker's group, and stops with it.
func TestNothingRunsBetweenCalls(t *testing.T) {
	noNamespaces := func(c *Config) { c.NoNamespaces = true }
	for _, c := range []struct {
		name, tool string
		caps       tool.Capability
		conf       func(*Config)
	}{
		{"none", "r10_linger", tool.Unsafe, nil},
		{"every capability", "r10_linger", tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Exec | tool.Unsafe, nil},
		{"without namespaces", "r10_linger", tool.Unsafe, noNamespaces},
		{"a program it started, without namespaces", "r10_lingerchild", tool.Exec | tool.Unsafe, noNamespaces},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPool(t, newDirs(t), c.conf)
			got, err := call(t, p, c.tool, c.caps, r9Args{})
			if err != nil {
				t.Fatalf("%s: %q, %v", c.tool, got, err)
			}
			p.mu.Lock()
			ws := p.idle[workerKey{c.tool, c.caps}]
			p.mu.Unlock()
			if len(ws) != 1 {
				t.Fatalf("%d idle workers, want 1", len(ws))
			}
			pid := ws[0].pid()
			what := "the idle worker"
			if got != "left" {
				// The program's pid: the worker is stopped when it is.
				if pid, err = strconv.Atoi(got); err != nil {
					t.Fatalf("%s answered %q, want left or a pid", c.tool, got)
				}
				what = "the program the idle worker's tool started"
			}
			// Wait for the pool to stop it: not a bound on its speed.
			deadline := time.Now().Add(30 * time.Second)
			for state, _ := procCPU(t, pid); state != "T"; state, _ = procCPU(t, pid) {
				if time.Now().After(deadline) {
					t.Fatalf("%s is in state %s, not stopped", what, state)
				}
				time.Sleep(5 * time.Millisecond)
			}
			_, before := procCPU(t, pid)
			time.Sleep(300 * time.Millisecond)
			state, after := procCPU(t, pid)
			if after != before || state != "T" {
				t.Errorf("%s, in state %s, ran %d clock ticks of processor time after its call", what, state, after-before)
			}
			// The positive control: the next call continues it.
			if got, err := call(t, p, "echo", c.caps, probeArgs{}); err != nil {
				t.Errorf("a call after the pause: %q, %v", got, err)
			}
			if got, err := call(t, p, c.tool, c.caps, r9Args{}); err != nil {
				t.Errorf("the stopped worker's next call: %q, %v", got, err)
			}
		})
	}
}

// procCPU reads the state and the processor time (user and system, in
// clock ticks) of process pid, its threads together.
func procCPU(t *testing.T, pid int) (state string, ticks int64) {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command, which is in parentheses.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %q", pid, b)
	}
	return f[0], utime + stime
}

// TestStoppedAlone: stoppedAlone tells a stopped process with no child
// from one still running (unsettled), one with a child, and one gone.
func TestStoppedAlone(t *testing.T) {
	t.Parallel()
	start := func(cmd *exec.Cmd) int {
		t.Helper()
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
			_ = cmd.Wait()
		})
		return cmd.Process.Pid
	}
	alone := start(exec.Command(os.Args[0], sleepArg))
	if got, settled := stoppedAlone(alone); got || settled {
		t.Errorf("a process running (asleep): alone %v, settled %v; want false, false", got, settled)
	}
	if err := unix.Kill(alone, unix.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Settled once every thread has stopped: not a bound on the speed.
	deadline := time.Now().Add(10 * time.Second)
	got, settled := stoppedAlone(alone)
	for ; !settled && time.Now().Before(deadline); got, settled = stoppedAlone(alone) {
	}
	if !got || !settled {
		t.Errorf("a process stopped, without a child: alone %v, settled %v; want true, true", got, settled)
	}

	parent := start(exec.Command("/bin/sh", "-c", "sleep 60 & wait"))
	for children := ""; children == ""; {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", parent, parent))
		if err != nil {
			t.Fatal(err)
		}
		if children = strings.TrimSpace(string(b)); children == "" && time.Now().After(deadline) {
			t.Fatal("the shell started no child")
		}
	}
	if err := unix.Kill(-parent, unix.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if got, settled := stoppedAlone(parent); got || !settled {
		t.Errorf("a process with a child: alone %v, settled %v; want false, true", got, settled)
	}

	gone := exec.Command(os.Args[0], exit42Arg)
	_ = gone.Run()
	if got, settled := stoppedAlone(gone.Process.Pid); got || !settled {
		t.Errorf("a process gone: alone %v, settled %v; want false, true", got, settled)
	}
}

// TestStoppedAloneEveryThread: stoppedAloneIn on task directories made
// for the test: every thread must be stopped and have no child, and a
// file that cannot be read counts as a child (fail closed).
func TestStoppedAloneEveryThread(t *testing.T) {
	t.Parallel()
	task := func(threads map[string][2]string) string {
		t.Helper()
		dir := t.TempDir() + "/"
		for tid, files := range threads {
			if err := os.Mkdir(dir+tid, 0o755); err != nil {
				t.Fatal(err)
			}
			for i, name := range []string{"stat", "children"} {
				if files[i] == "-" {
					continue // not there: it cannot be read
				}
				if err := os.WriteFile(dir+tid+"/"+name, []byte(files[i]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		return dir
	}
	const stopped, running = "7 (w) T 1 7 7 0 -1", "8 (w) S 1 7 7 0 -1"
	for _, c := range []struct {
		name           string
		threads        map[string][2]string
		alone, settled bool
	}{
		{"every thread stopped", map[string][2]string{"7": {stopped, ""}, "8": {stopped, ""}}, true, true},
		{"the second thread running", map[string][2]string{"7": {stopped, ""}, "8": {running, ""}}, false, false},
		{"the first thread running", map[string][2]string{"7": {running, ""}, "8": {stopped, ""}}, false, false},
		{"a child of the second thread", map[string][2]string{"7": {stopped, ""}, "8": {stopped, "12 "}}, false, true},
		{"the second thread's children unreadable", map[string][2]string{"7": {stopped, ""}, "8": {stopped, "-"}}, false, true},
		{"the second thread's stat unreadable", map[string][2]string{"7": {stopped, ""}, "8": {"-", ""}}, false, true},
		{"a comm of parentheses", map[string][2]string{"7": {"7 ()) T) T 1", ""}, "8": {"8 (a) S) S 1", ""}}, false, false},
		{"a stat line cut before the state", map[string][2]string{"7": {"7 (w)", ""}}, false, true},
	} {
		alone, settled := stoppedAloneIn(task(c.threads))
		if alone != c.alone || settled != c.settled {
			t.Errorf("%s: alone %v, settled %v; want %v, %v", c.name, alone, settled, c.alone, c.settled)
		}
	}
	if alone, settled := stoppedAloneIn(t.TempDir() + "/none/"); alone || !settled {
		t.Errorf("no task directory: alone %v, settled %v; want false, true", alone, settled)
	}
}

// BenchmarkStoppedAlone looks at a stopped process without a child, as
// the pool does each time it stops an idle worker.
func BenchmarkStoppedAlone(b *testing.B) {
	cmd := exec.Command(os.Args[0], sleepArg)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	if err := unix.Kill(pid, unix.SIGSTOP); err != nil {
		b.Fatal(err)
	}
	for alone, settled := stoppedAlone(pid); !alone || !settled; alone, settled = stoppedAlone(pid) {
		if !settled {
			continue
		}
		b.Fatal("a stopped process without a child is not alone")
	}
	b.ReportAllocs()
	for b.Loop() {
		stoppedAlone(pid)
	}
}
