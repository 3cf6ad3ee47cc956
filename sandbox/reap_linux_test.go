//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// threadsInWaitid counts the threads of the test's process blocked in
// waitid.
func threadsInWaitid(t *testing.T) int {
	t.Helper()
	tids, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tid := range tids {
		b, err := os.ReadFile("/proc/self/task/" + tid.Name() + "/syscall")
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
			continue // the thread ended
		}
		if err != nil {
			t.Fatal(err)
		}
		// "nr args… sp pc" while in a call, "running" otherwise.
		f := strings.Fields(string(b))
		if len(f) > 0 && f[0] == strconv.Itoa(unix.SYS_WAITID) {
			n++
		}
	}
	return n
}

// needPidfd skips a test on a kernel, or under a seccomp filter, that
// gives no pidfd (Linux 5.3), where waitExited waits on a thread.
func needPidfd(t *testing.T) {
	t.Helper()
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		t.Skipf("no pidfd here (%v): a worker's exit is waited for on a thread", err)
	}
	unix.Close(fd)
}

// TestWorkersHoldNoThread: the pool waited for each worker's exit on a
// thread of its own, blocked in waitid for the worker's life: an agent
// with 9 workers alive ran 16 threads. It waits on the runtime's poller
// through a pidfd now. Not parallel: the other tests' exec.Cmd.Wait
// calls would block threads in waitid of their own.
func TestWorkersHoldNoThread(t *testing.T) {
	needPidfd(t)
	// The control: a goroutine in exec.Cmd.Wait blocks a thread in
	// waitid, which the count sees.
	child := exec.Command(os.Args[0], sleepArg)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = child.Wait(); close(waited) }()
	seen := false
	for deadline := time.Now().Add(10 * time.Second); !seen && time.Now().Before(deadline); {
		seen = threadsInWaitid(t) > 0
		time.Sleep(time.Millisecond)
	}
	_ = child.Process.Kill()
	<-waited
	if !seen {
		t.Fatal("the control: no thread in waitid while a goroutine waits for a child")
	}

	p := newPool(t, newDirs(t), nil)
	const workers = 3
	for i := range workers {
		if err := p.Warm(context.Background(), fmt.Sprintf("echo#%d", i), tool.Unsafe); err != nil {
			t.Fatal(err)
		}
	}
	p.mu.Lock()
	live := len(p.live)
	p.mu.Unlock()
	if live < workers {
		t.Fatalf("%d workers alive, want %d at least", live, workers)
	}
	for range 20 {
		if n := threadsInWaitid(t); n != 0 {
			t.Fatalf("%d threads blocked in waitid with %d workers alive; want none", n, workers)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPollExited: pollExited waits for a child's exit, whatever stops
// and continues it first, and leaves it to reap; it says so for a
// process that is not a child, and cannot open a pidfd for a process
// that is gone.
func TestPollExited(t *testing.T) {
	t.Parallel()
	needPidfd(t)
	child := exec.Command(os.Args[0], exit42Arg)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	pid := child.Process.Pid
	if exited, ok := pollExited(pid); !exited || !ok {
		t.Fatalf("a child that exits: exited %v, ok %v; want true, true", exited, ok)
	}
	// Not reaped: its status is still there to take.
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil); err != nil || info.Signo == 0 {
		t.Fatalf("the child after pollExited: waitid %v, signal %d; want it waiting to be reaped", err, info.Signo)
	}
	if err := child.Wait(); child.ProcessState == nil || child.ProcessState.ExitCode() != 42 {
		t.Fatalf("reaping the child: %v; want exit status 42", err)
	}
	// Reaped, it is gone: no pidfd, and nothing waited for.
	if exited, ok := pollExited(pid); exited || ok {
		t.Errorf("a child reaped: exited %v, ok %v; want false, false", exited, ok)
	}
	// Init is not a child of the test's (nor of itself, where the test
	// runs as init).
	if exited, ok := pollExited(1); exited || !ok {
		t.Errorf("a process that is not a child: exited %v, ok %v; want false, true", exited, ok)
	}

	// A child stopped and continued, as the pool does an idle worker, is
	// still alive: pollExited returns once it is killed.
	sleeper := exec.Command(os.Args[0], sleepArg)
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	type result struct{ exited, ok bool }
	got := make(chan result, 1)
	go func() {
		exited, ok := pollExited(sleeper.Process.Pid)
		got <- result{exited, ok}
	}()
	for _, sig := range []unix.Signal{unix.SIGSTOP, unix.SIGCONT, unix.SIGSTOP} {
		if err := unix.Kill(sleeper.Process.Pid, sig); err != nil {
			t.Fatal(err)
		}
		// Time for a wrong answer to come: not a bound on a speed.
		time.Sleep(20 * time.Millisecond)
		select {
		case r := <-got:
			t.Fatalf("pollExited returned %+v after %v, the child alive", r, sig)
		default:
		}
	}
	if err := sleeper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if r := <-got; !r.exited || !r.ok {
		t.Errorf("a stopped child killed: %+v; want exited and ok", r)
	}
	if err := sleeper.Wait(); err == nil {
		t.Error("the killed child exited without an error")
	}
}

// TestReapedWhateverHoldsStderr: once a worker is ended, the pool, still
// open, reaps it, closes its pipes and removes its temp directory with
// what its tool left there, even where a program the tool started left
// the worker's session (no PID namespace) and keeps the worker's stderr,
// which the pool reads to its end otherwise. Its pipes left open, the
// pool waited for that program for good, and Close with it; its temp
// directory left, a server that ends workers all day kept every one of
// them, with what tools wrote there, until it closed.
func TestReapedWhateverHoldsStderr(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) { c.NoNamespaces = true })
	caps := tool.Exec | tool.WriteFiles | tool.Unsafe
	text, err := call(t, p, "daemon_stderr", caps, probeArgs{Path: d.work + "/lock"})
	line, pidText, _ := strings.Cut(text, " ")
	pid, perr := strconv.Atoi(pidText)
	if err != nil || line != "ready" || perr != nil {
		t.Fatalf("daemon_stderr: %q, %v; want ready and a pid", text, err)
	}
	t.Cleanup(func() { unix.Kill(pid, unix.SIGKILL) })
	w := onlyIdle(t, p, "daemon_stderr", caps)
	if err := os.WriteFile(w.tempDir+"/left", []byte("a token"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.kill()
	select {
	case <-w.exited:
	case <-time.After(time.Minute): // a guard, not a bound: it takes a second
		t.Fatal("the worker is not reaped a minute after it was killed")
	}
	if _, err := unix.Getpgid(pid); err != nil {
		t.Fatalf("the program that holds the worker's stderr is gone (%v): the test shows nothing", err)
	}
	if _, err := os.Lstat(w.tempDir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the reaped worker's temp directory %s: %v; want it removed", w.tempDir, err)
	}
	for name, f := range map[string]*os.File{"request": w.reqW, "response": w.respF} {
		if _, err := f.Write(nil); !errors.Is(err, os.ErrClosed) {
			t.Errorf("the reaped worker's %s pipe: %v; want it closed", name, err)
		}
	}
}

// TestReapEndsTheWorkersGroup: a worker without namespaces that dies on
// its own outside a call (a limit's kill, the OOM killer) takes the
// programs its tool left in its process group with it: the pool kills
// the group as it reaps the worker. No call's end kills them then, and
// once the worker is reaped, nothing else would.
func TestReapEndsTheWorkersGroup(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true })
	caps := tool.Exec | tool.Unsafe
	text, err := call(t, p, "r10_lingerchild", caps, probeArgs{})
	pid, perr := strconv.Atoi(text)
	if err != nil || perr != nil {
		t.Fatalf("r10_lingerchild: %q, %v; want a pid", text, err)
	}
	t.Cleanup(func() { unix.Kill(pid, unix.SIGKILL) })
	w := onlyIdle(t, p, "r10_lingerchild", caps)
	if pgid, err := unix.Getpgid(pid); err != nil || pgid != w.pid() {
		t.Fatalf("the program's group %d, %v; want the worker's, %d: the test shows nothing", pgid, err, w.pid())
	}
	if err := unix.Kill(w.pid(), unix.SIGKILL); err != nil { // the worker alone
		t.Fatal(err)
	}
	<-w.exited // the test's own timeout bounds this
	if b, ok := gone(pid); !ok {
		t.Errorf("the program the tool left in its worker's group lives on after the worker was reaped: %s", b)
	}
}
