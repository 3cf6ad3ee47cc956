//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/toolreg/toolreg/tool"

	"github.com/toolreg/toolreg/registry"
)

func wantKind(t *testing.T, what string, err error, kind registry.Kind, msg string) {
	t.Helper()
	var e *registry.Error
	if !errors.As(err, &e) || e.Kind != kind || !strings.Contains(e.Err.Error(), msg) {
		t.Errorf("%s: got %v, want kind %q with %q in the message", what, err, kind, msg)
	}
}

// liveWorkers returns the pids of the pool's workers given a tool.
func liveWorkers(p *Pool) []int { return processes(p, false) }

// processes returns the pids of the pool's worker processes, spares
// included when spares.
func processes(p *Pool, spares bool) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for w := range p.live {
		if spares || !w.spare {
			pids = append(pids, w.pid())
		}
	}
	return pids
}

// unsettled counts the pool's workers that are neither idle nor reaped:
// busy, starting (a start ahead counts before its process exists), or
// killed and not yet reaped.
func unsettled(p *Pool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	counted := 0 // live workers and starts not yet launched
	for _, c := range p.count {
		counted += c
	}
	n := max(len(p.live), counted)
	for _, ws := range p.idle {
		n -= len(ws)
	}
	return n
}

func TestToolErrorsKeepTheWorker(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), keepSpare)
	for _, tc := range []struct {
		id   string
		kind registry.Kind
		msg  string
	}{
		{"fail", registry.KindTool, "the tool failed"},
		{"badargs", registry.KindArguments, "bad probe arguments: field x"},
		{"panic", registry.KindPanic, "boom"},
		{"goexit", registry.KindPanic, "runtime.Goexit"},
	} {
		// The tool's worker serves its next call too.
		var pids [][]int
		for range 2 {
			_, err := call(t, p, tc.id, tool.Unsafe, probeArgs{})
			wantKind(t, tc.id, err, tc.kind, tc.msg)
			p.mu.Lock()
			var mine []int
			for _, w := range p.idle[workerKey{tc.id, tool.Unsafe}] {
				mine = append(mine, w.pid())
			}
			p.mu.Unlock()
			pids = append(pids, mine)
		}
		if len(pids[0]) != 1 || len(pids[1]) != 1 || pids[0][0] != pids[1][0] {
			t.Errorf("%s: its idle workers %v after one call, %v after the next; want the same one", tc.id, pids[0], pids[1])
		}
	}
}

func TestWorkerDeathFailsOnlyThatCall(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), keepSpare)
	for _, tc := range []struct {
		id, msg string
	}{
		{"goroutine_panic", "panic: boom in a goroutine"},
		{"exit", "exit status 3"},
		{"selfkill", "SIGABRT: abort"},
	} {
		_, err := call(t, p, tc.id, tool.Unsafe, probeArgs{})
		wantKind(t, tc.id, err, registry.KindCrashed, tc.msg)
		if got, err := call(t, p, "echo", tool.Unsafe, probeArgs{}); err != nil || got != "{}" {
			t.Errorf("the call after %s: %q, %v; want {}", tc.id, got, err)
		}
	}
}

func TestWorkerKilledMidCall(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), keepSpare)
	if err := p.Warm(context.Background(), "block", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	pids := liveWorkers(p)
	if len(pids) != 1 {
		t.Fatalf("workers %v, want one", pids)
	}
	p.mu.Lock()
	w := p.idle[workerKey{"block", tool.Unsafe}][0]
	p.mu.Unlock()
	errc := make(chan error, 1)
	go func() {
		_, err := call(t, p, "block", tool.Unsafe, probeArgs{})
		errc <- err
	}()
	// The tool says "blocking" on its stdout once it runs.
	for !strings.Contains(w.tail.String(), "blocking") {
		time.Sleep(time.Millisecond)
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wantKind(t, "block, killed", <-errc, registry.KindCrashed, "signal: killed")
	if got, err := call(t, p, "echo", tool.Unsafe, probeArgs{}); err != nil || got != "{}" {
		t.Errorf("the call after the kill: %q, %v; want {}", got, err)
	}
}

func TestCancelKillsTheWorker(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), keepSpare)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Call(ctx, "echo", tool.Unsafe, nil)
	wantKind(t, "cancelled before the call", err, registry.KindCancelled, "killed")

	if err := p.Warm(context.Background(), "block", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	w := p.idle[workerKey{"block", tool.Unsafe}][0]
	p.mu.Unlock()
	ctx, cancel = context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := p.Call(ctx, "block", tool.Unsafe, nil)
		errc <- err
	}()
	for !strings.Contains(w.tail.String(), "blocking") {
		time.Sleep(time.Millisecond)
	}
	cancel()
	err = <-errc
	wantKind(t, "cancelled during the call", err, registry.KindCancelled, "killed")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want it to wrap context.Canceled", err)
	}
	<-w.exited
	if st := w.cmd.ProcessState; st == nil || st.String() != "signal: killed" {
		t.Errorf("the worker of the cancelled call ended with %v, want signal: killed", st)
	}
}

func TestRequireRefusesUnenforced(t *testing.T) {
	t.Parallel()
	for _, require := range []bool{true, false} {
		t.Run(fmt.Sprint("require=", require), func(t *testing.T) {
			p := newPool(t, newDirs(t), func(c *Config) { c.Arg = fakeArg; c.Require = require })
			enf, err := p.Enforcement(context.Background(), "echo", tool.Unsafe)
			if require {
				wantKind(t, "fake unenforced worker", err, registry.KindRefused, "no Landlock (fake)")
				return
			}
			if err != nil || enf.Enforced() {
				t.Errorf("without Require: %+v, %v; want a worker that is not enforced", enf, err)
			}
		})
	}
}

// procStat is what the test reads of a process in /proc.
type procStat struct {
	pid   int
	ticks uint64 // user and system CPU time
}

// children lists the processes whose parent is this one.
func children(t *testing.T) []procStat {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []procStat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, ppid, ok := readStat(pid)
		if ok && ppid == os.Getpid() {
			out = append(out, st)
		}
	}
	return out
}

func readStat(pid int) (procStat, int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, 0, false
	}
	// The fields after the command name, which ends at the last ')'.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ppid, _ := strconv.Atoi(f[1])
	ut, _ := strconv.ParseUint(f[11], 10, 64)
	stt, _ := strconv.ParseUint(f[12], 10, 64)
	return procStat{pid: pid, ticks: ut + stt}, ppid, true
}

func TestSpinnersAreKilled(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	// No spare: every process of the pool is then a worker whose CPU
	// counts once it is settled.
	p := newPool(t, newDirs(t), func(c *Config) { c.Spares = 0 })
	if err := p.Warm(context.Background(), "spin", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	var m0 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	procs0 := len(children(t))

	args := []byte(`"` + strings.Repeat("x", 256<<10) + `"`)
	// Each call starts a worker (the last one was killed): 40 calls are
	// enough for a leak per call to show, in processes, goroutines or in
	// the heap, where each call's arguments would stay.
	const calls = 40
	for i := range calls {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		// A call whose worker is not killed when its context ends would
		// wait for that worker for good: a guard names it.
		answered := make(chan error, 1)
		go func() {
			_, err := p.Call(ctx, "spin", tool.Unsafe, args)
			answered <- err
		}()
		var err error
		select {
		case err = <-answered:
		case <-time.After(time.Minute):
			t.Fatalf("call %d still runs a minute after its 5 ms deadline", i)
		}
		cancel()
		var e *registry.Error
		if !errors.As(err, &e) || e.Kind != registry.KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("call %d: got %v, want a timeout", i, err)
		}
	}
	// The killed workers are reaped by now or soon; wait for the pool to
	// have none but idle ones (a call that timed out while its worker
	// started leaves the worker for the next call).
	for unsettled(p) > 0 {
		time.Sleep(time.Millisecond)
	}
	kids := children(t)
	live := liveWorkers(p)
	for _, k := range kids {
		if !slices.Contains(live, k.pid) {
			t.Errorf("child process %d after %d timed-out calls is no worker of the pool (%v)", k.pid, calls, live)
		}
	}
	if len(live) > procs0+1 {
		t.Errorf("%d workers after %d timed-out calls, %d before", len(live), calls, procs0)
	}
	// CPU: the workers and this process use next to none while idle (a
	// spinning worker would use 20 ticks in 200 ms).
	self0, _, _ := readStat(os.Getpid())
	time.Sleep(200 * time.Millisecond)
	self1, _, _ := readStat(os.Getpid())
	kids1 := children(t)
	for _, k1 := range kids1 {
		for _, k0 := range kids {
			if k0.pid == k1.pid && k1.ticks-k0.ticks > 5 {
				t.Errorf("worker %d used %d ticks of CPU in 200 ms of idleness", k1.pid, k1.ticks-k0.ticks)
			}
		}
	}
	if d := self1.ticks - self0.ticks; d > 5 {
		t.Errorf("this process used %d ticks of CPU in 200 ms of idleness", d)
	}
	var m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if grew := int64(m1.HeapInuse) - int64(m0.HeapInuse); grew > int64(calls*len(args)/2) {
		t.Errorf("the heap grew by %d bytes over %d timed-out calls of %d bytes of arguments", grew, calls, len(args))
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if kids := children(t); len(kids) != 0 {
		t.Errorf("child processes %v after Close", kids)
	}
}

// poolToKillArg runs the test binary as a program with a pool, a spare,
// and a worker whose call has started a program that left its session
// (daemon_block), which prints the pids of those processes and waits to
// be killed.
const poolToKillArg = "-sandbox-test-pool-to-kill"

func poolToKill(dir string) int {
	// A guard, not a bound: the test waits for the line below, and a
	// program that never prints it ends with a reason instead.
	time.AfterFunc(time.Minute, func() {
		fmt.Fprintln(os.Stderr, "no worker started the program within a minute")
		os.Exit(2)
	})
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, Spares: 1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The spare in place of the one daemon_block is given starts at once,
	// not after a call that never ends has held it back (assignSpare).
	p.mu.Lock()
	p.spareWait = time.Millisecond
	p.mu.Unlock()
	go p.Call(context.Background(), "daemon_block", tool.Exec|tool.WriteFiles|tool.Unsafe, []byte(`{"path":"`+dir+`/lock"}`))
	for {
		p.mu.Lock()
		var pids []int
		for w := range p.live {
			pids = append(pids, w.pid())
		}
		p.mu.Unlock()
		var programs []string
		for _, pid := range pids {
			programs = append(programs, childrenOf(pid)...)
		}
		if len(pids) == 2 && len(programs) > 0 {
			for _, pid := range pids {
				fmt.Print(pid, " ")
			}
			fmt.Println(strings.Join(programs, " "))
			select {}
		}
		time.Sleep(time.Millisecond)
	}
}

// childrenOf lists the children of every thread of process pid: a
// /proc/<pid>/task/<tid>/children file holds only those the thread
// started, and the worker starts programs from any of its threads.
func childrenOf(pid int) []string {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var kids []string
	for _, task := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		kids = append(kids, strings.Fields(string(b))...)
	}
	return kids
}

// TestWorkersEndWithTheAgent: when the program that runs the pool is
// killed, so that it can neither kill nor reap its workers, every
// process of theirs ends all the same (PR_SET_PDEATHSIG, and with each
// worker its PID namespace).
func TestWorkersEndWithTheAgent(t *testing.T) {
	needNamespaces(t) // without a PID namespace, a program that left the session stays
	cmd, line := startPoolProgram(t, poolToKillArg)
	var pids []int
	for _, f := range strings.Fields(line) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("the pool's program printed %q", line)
		}
		pids = append(pids, pid)
	}
	if len(pids) < 3 {
		t.Fatalf("the pool's program printed %q, want the pids of two workers and a program", line)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for _, pid := range pids {
		if b, ok := gone(pid); !ok {
			t.Fatalf("process %d of a worker lives on a minute after the pool's program was killed: %s", pid, b)
		}
	}
}

// startPoolProgram starts the test binary as the program of a pool,
// with arg and a directory of its own, and returns it with the first
// line it prints; the test's end kills it if it still runs.
func startPoolProgram(t *testing.T, arg string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], arg, t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the pool's program: %v", err)
	}
	return cmd, line
}

// gone waits for process pid to end (or be a zombie), a minute at most
// (a guard, not a bound: a death takes milliseconds); it reports false,
// with the process's stat, when it lives on.
func gone(pid int) ([]byte, bool) {
	guard := time.Now().Add(time.Minute)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || bytes.Contains(b, []byte(") Z ")) {
			return nil, true
		}
		if time.Now().After(guard) {
			return b, false
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCloseDuringStarts: a pool closed while its first calls start
// their workers ends them all: a start that looked before Close and
// launches after adds no goroutine to those Close waits for (it once
// panicked, "WaitGroup is reused before previous Wait has returned", or
// left the worker running until its call ended).
func TestCloseDuringStarts(t *testing.T) {
	dir := t.TempDir()
	rounds := 50
	if testing.Short() {
		rounds = 10 // each of the ten waits before Close once
	}
	for round := range rounds {
		p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() { p.Call(context.Background(), fmt.Sprintf("echo#%d", i), 0, []byte(`{}`)) })
		}
		time.Sleep(time.Duration(round%10) * 100 * time.Microsecond)
		p.Close()
		wg.Wait()
	}
}

// TestToolSeesItsDeadline: a tool in its worker has the deadline its
// call has, to the nanosecond, as it would in process, so that a tool
// that plans by its deadline (a client's timeout, partial results)
// works the same; and a call without one gives it none.
func TestToolSeesItsDeadline(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	raw := []byte(`{}`)
	for _, d := range []time.Time{
		time.Now().Add(time.Hour).Add(123 * time.Nanosecond),
		time.Now().Add(time.Minute),
		{},
	} {
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		want := "none"
		if !d.IsZero() {
			ctx, cancel = context.WithDeadline(ctx, d)
			want = strconv.FormatInt(d.UnixNano(), 10)
		}
		got, err := p.Call(ctx, "deadline", tool.Unsafe, raw)
		cancel()
		if err != nil || got != want {
			t.Errorf("the tool's deadline: %q, %v; want %q (%v)", got, err, want, d)
		}
	}
}
