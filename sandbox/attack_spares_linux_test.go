//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// The attacks of a hostile tool author on the spare workers, their
// assignment frame, the process limit, and the namespaces and dumpable
// window of an agent that runs as a user other than root. The probes
// are the atk_ tools of attack_probe_linux_test.go.

// TestAttackSecondAssignment: a worker takes one assignment. A second
// one, written by the pool's side of the pipe or by the tool itself into
// its own request pipe through /proc/self/fd, gives it no capability:
// the worker dies rather than read it as a request, and the tool's next
// worker is restricted as the first.
func TestAttackSecondAssignment(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	secret := filepath.Join(d.other, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, keepSpare)
	ctx := context.Background()

	// The pool's side: an assignment frame after the hello.
	const id = "atk_reassign#pool"
	if _, err := p.Enforcement(ctx, id, tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	ws := idleOf(p, id, tool.Unsafe)
	if len(ws) != 1 {
		t.Fatalf("%d idle workers of %s, want 1", len(ws), id)
	}
	all := tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe
	frame, err := assignFrame(assignment{Tool: id, Caps: all.String()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := writeFrame(ws[0].reqW, nil, frame); err != nil {
		t.Fatal(err)
	}
	text, err := call(t, p, id, tool.Unsafe, attackArgs{Path: secret})
	if strings.Contains(text, "s3cret") {
		t.Fatalf("after a second assignment, a tool without read_files read %q", text)
	}
	// The worker ends when it reads the frame. A call that finds it ending
	// fails as crashed; once it has ended, a call is given a new worker,
	// which the tool's restrictions bind. Which one the call meets depends
	// on how soon the worker reads the frame.
	if e, ok := errors.AsType[*registry.Error](err); !ok || e.Kind != registry.KindCrashed {
		wantErrno(t, "the call after a second assignment, in a new worker", err, "EACCES")
	}
	wantEnds(t, ws[0], "the worker given a second assignment")
	_, err = call(t, p, id, tool.Unsafe, attackArgs{Path: secret})
	wantErrno(t, "the tool's next worker", err, "EACCES")

	// The tool's side: it writes the assignment into its own request
	// pipe, to be read after its answer.
	const self = "atk_reassign#self"
	text, err = call(t, p, self, tool.Unsafe, attackArgs{})
	t.Logf("the tool writes an assignment into its request pipe: %q, %v", text, err)
	for i := range 2 {
		text, err := call(t, p, self, tool.Unsafe, attackArgs{Path: secret})
		if strings.Contains(text, "s3cret") {
			t.Fatalf("call %d after the tool's own assignment read the secret: %q", i, text)
		}
		if err == nil {
			t.Errorf("call %d after the tool's own assignment: %q, want a failure", i, text)
		}
	}
}

// workerProcesses counts the live children of this process that run as
// workers of the test binary, spares included.
func workerProcesses(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	me := strconv.Itoa(os.Getpid())
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: the fields after the last ')'.
		f := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+1:]))
		if len(f) < 2 || f[1] != me || f[0] == "Z" {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if bytes.Contains(cmdline, []byte(workerArg)) {
			n++
		}
	}
	return n
}

// waitSpares waits until p has n spares ready, and reports whether it
// has them: false when a spare failed to start, after which the pool
// starts no more.
func waitSpares(p *Pool, n int) bool {
	for {
		p.mu.Lock()
		ready, failed := len(p.spares), p.noSpares
		p.mu.Unlock()
		if ready >= n {
			return true
		}
		if failed {
			return false
		}
		time.Sleep(time.Millisecond) // the test's own timeout bounds this
	}
}

// TestAttackSlotsHoldWithSpares: many tools called at once, some of
// them crashing, never have more live worker processes than MaxWorkers,
// spares included; no call is answered by another tool's worker or
// given a worker that serves another tool (a spare given to two calls).
func TestAttackSlotsHoldWithSpares(t *testing.T) {
	const maxWorkers = 3
	p := newPool(t, newDirs(t), func(c *Config) { c.MaxWorkers, c.Spares = maxWorkers, 2 })
	var (
		done    = make(chan struct{})
		sampled = make(chan int)
	)
	go func() {
		most := 0
		for {
			select {
			case <-done:
				sampled <- most
				return
			default:
			}
			most = max(most, workerProcesses(t))
			time.Sleep(time.Millisecond)
		}
	}()
	// A guard, not a bound: calls that wait for a slot no worker frees
	// fail after a minute, and the test says so, instead of hanging.
	guard, cancelGuard := context.WithTimeout(context.Background(), time.Minute)
	defer cancelGuard()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			for i := range 4 {
				tid := fmt.Sprintf("echo#%d", (g+i)%5)
				want := fmt.Sprintf(`{"n":%d}`, g*100+i)
				if g%3 == 0 {
					_, err := p.Call(guard, fmt.Sprintf("exit#%d", g), tool.Unsafe, []byte(`{}`))
					var e *registry.Error
					if !errors.As(err, &e) || e.Kind != registry.KindCrashed {
						errs <- fmt.Errorf("a crashing tool: %v, want it crashed", err)
					}
					continue
				}
				got, err := p.Call(guard, tid, tool.Unsafe, []byte(want))
				if err != nil || got != want {
					errs <- fmt.Errorf("%s answered %q, %v; want %q", tid, got, err, want)
				}
			}
		})
	}
	wg.Wait()
	close(done)
	most := <-sampled
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if most > maxWorkers {
		t.Errorf("%d live worker processes at once, MaxWorkers %d", most, maxWorkers)
	}
	t.Logf("at most %d live worker processes (MaxWorkers %d, 2 spares)", most, maxWorkers)
}

// TestAttackCrashLoopStartsNoStorm: tools that crash their workers at
// every call have each call start at most a worker and a spare: the
// spares they use up do not multiply; and once the crashes are over,
// the pool has its spares again.
func TestAttackCrashLoopStartsNoStorm(t *testing.T) {
	d := newDirs(t)
	// A program that counts its starts, then runs the test binary.
	count := filepath.Join(d.other, "starts")
	wrapper := filepath.Join(d.other, "worker.sh")
	script := fmt.Sprintf("#!/bin/sh\necho >> %s\nexec %s \"$@\"\n", count, os.Args[0])
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const spares, calls = 2, 20
	p := newPool(t, d, func(c *Config) { c.Executable, c.Spares, c.MaxWorkers = wrapper, spares, 4 })
	starts := func() int {
		b, _ := os.ReadFile(count)
		return bytes.Count(b, []byte("\n"))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for range calls / 4 {
				_, err := call(t, p, fmt.Sprintf("exit#%d", g), tool.Unsafe, probeArgs{})
				var e *registry.Error
				if !errors.As(err, &e) || e.Kind != registry.KindCrashed {
					t.Errorf("a crashing tool: %v, want it crashed", err)
				}
			}
		})
	}
	wg.Wait()
	// Once every crashed worker has given back its slot, the pool keeps
	// its spares again, started or on their way: the crashes that used
	// them up while every slot was taken do not leave it without.
	for {
		p.mu.Lock()
		released, nspares := len(p.count) == 0, p.nspares
		p.mu.Unlock()
		if released {
			if nspares != spares {
				t.Fatalf("after the crashes, %d spares started or starting, want %d", nspares, spares)
			}
			break
		}
		time.Sleep(time.Millisecond) // the test's own timeout bounds this
	}
	if !waitSpares(p, spares) {
		t.Fatal("a spare failed to start, and the pool starts no more")
	}
	n := starts()
	if n > 2*calls+spares {
		t.Errorf("%d crashing calls started %d workers, want at most %d", calls, n, 2*calls+spares)
	}
	if live := len(processes(p, true)); live > 4 {
		t.Errorf("%d live workers after the crashes, MaxWorkers 4", live)
	}
	t.Logf("%d crashing calls started %d workers (%d spares)", calls, n, spares)
}

// TestAttackSetuidInWorkspace: a tool with write_files makes no
// set-user-ID or set-group-ID file, by creating it so or by chmod: as
// root, it would leave a program that runs as root for anyone who can
// reach the workspace (a container's bind mount, a shared directory).
func TestAttackSetuidInWorkspace(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, keepSpare)
	for n, how := range []string{"created with the bit", "given it by chmod"} {
		path := filepath.Join(d.work, fmt.Sprintf("suid%d", n))
		text, err := call(t, p, "atk_suid", tool.WriteFiles|tool.Unsafe, attackArgs{Path: path, N: n})
		t.Logf("a set-user-ID file %s: %q, %v", how, text, err)
		if err != nil {
			wantErrno(t, "a set-user-ID file "+how, err, "EPERM")
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
			t.Errorf("the workspace holds %s, mode %v", path, fi.Mode())
		}
	}
	// A plain executable stays possible (positive control).
	path := filepath.Join(d.work, "plain")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, p, "chmod", tool.WriteFiles|tool.Unsafe, probeArgs{Path: path, Mode: 0o755}); err != nil {
		t.Errorf("chmod 0755 with write_files: %v", err)
	}
}

// TestAttackSpareReachedByTool: where workers share the machine's PID
// namespace (no user namespaces), a spare is not yet restricted when a
// tool runs in another worker. A tool with read_files cannot reach it
// through /proc: not its request pipe, to give it an assignment of its
// own, nor its environment or memory.
func TestAttackSpareReachedByTool(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) { keepSpare(c); c.NoNamespaces = true })
	rf := tool.ReadFiles | tool.Unsafe
	// The spy's own workers first: they take the first spares.
	for _, id := range []string{"atk_inject", "atk_open"} {
		if err := p.Warm(context.Background(), id, rf); err != nil {
			t.Fatal(err)
		}
	}
	s := waitSpare(t, p)
	proc := "/proc/" + strconv.Itoa(s.pid())
	text, err := call(t, p, "atk_inject", rf, attackArgs{Path: proc + "/fd/" + strconv.Itoa(requestFD), Argv: []string{"atk_reassign"}})
	wantErrno(t, fmt.Sprintf("a tool writes an assignment into a spare's request pipe (%q)", text), err, "EACCES")
	for _, f := range []string{"environ", "mem"} {
		text, err := call(t, p, "atk_open", rf, attackArgs{Path: proc + "/" + f})
		wantErrno(t, fmt.Sprintf("a tool opens a spare's %s (%q)", f, text), err, "EACCES")
	}
	// The spare, given its tool, is restricted to that tool's
	// capabilities: none here.
	secret := filepath.Join(d.other, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	text, err = call(t, p, "atk_reassign", tool.Unsafe, attackArgs{Path: secret})
	if strings.Contains(text, "s3cret") {
		t.Fatalf("the spare read the secret: %q", text)
	}
	wantErrno(t, "the spare given a tool without read_files", err, "EACCES")
	if w := idleOf(p, "atk_reassign", tool.Unsafe); len(w) != 1 || w[0] != s {
		t.Errorf("atk_reassign did not take the spare the tool tried to reach")
	}
}

// TestAttackGitAfterSpare: the workspace's .git is read-only to a tool
// with write_files even when it appeared after the tool's worker was
// started ahead as a spare (a git init while the agent serves), and a
// tool cannot make a .git of its own in a workspace that has none (the
// hooks and configuration of a repository, which git runs unconfined).
func TestAttackGitAfterSpare(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	wr := tool.WriteFiles | tool.Unsafe
	t.Run("git init after the spare", func(t *testing.T) {
		d := newDirs(t)
		p := newPool(t, d, keepSpare)
		s := waitSpare(t, p)
		if err := os.MkdirAll(filepath.Join(d.work, ".git", "hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
		text, err := call(t, p, "atk_plant", wr, attackArgs{Path: d.work})
		if w := idleOf(p, "atk_plant", wr); len(w) == 1 && w[0] == s {
			t.Error("the tool took the spare started before the git init")
		}
		if err == nil {
			t.Errorf("a tool with write_files, in a spare started before the workspace's git init: %q", text)
		}
		// Passed over, the spare would hold its slot, counted as a
		// spare, and its process until the pool closed.
		wantEnds(t, s, "the spare passed over as stale")
	})
	t.Run("git init after the tool's worker", func(t *testing.T) {
		d := newDirs(t)
		p := newPool(t, d, keepSpare)
		if _, err := call(t, p, "create#plant", wr, probeArgs{Path: filepath.Join(d.work, "f")}); err != nil {
			t.Fatal(err)
		}
		w := onlyIdle(t, p, "create#plant", wr)
		if err := os.MkdirAll(filepath.Join(d.work, ".git", "hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := call(t, p, "create#plant", wr, probeArgs{Path: filepath.Join(d.work, ".git", "hooks", "pre-commit")})
		wantErrno(t, "a tool with write_files, in its worker started before the workspace's git init", err, "EROFS")
		wantEnds(t, w, "the idle worker passed over as stale")
	})
	t.Run("git init while a call waits for the tool's worker", func(t *testing.T) {
		// One worker at most: the second call waits for the first's,
		// which is handed to it once the first call ends, after the git
		// init. Used, it would leave .git writable to the tool; passed
		// over and not ended, it would hold the one slot, and the second
		// call would wait for good.
		d := newDirs(t)
		p := newPool(t, d, func(c *Config) { c.MaxWorkers, c.Spares = 1, 0 })
		k := workerKey{"gate", wr}
		open := filepath.Join(d.work, "open")
		first := gated(p, k, open)
		var w *worker
		for w == nil {
			p.mu.Lock()
			for l := range p.live {
				if l.key == k {
					w = l
				}
			}
			p.mu.Unlock()
			time.Sleep(time.Millisecond) // the test's own timeout bounds this
		}
		second := gated(p, k, d.work)
		for underLock(p, func() int { return len(p.queue[k]) }) == 0 {
			time.Sleep(time.Millisecond) // the test's own timeout bounds this
		}
		if err := os.MkdirAll(filepath.Join(d.work, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		openGate(t, open)
		for _, c := range []struct {
			name string
			done <-chan error
		}{{"the first call", first}, {"the waiting call", second}} {
			select {
			case err := <-c.done:
				if err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
			case <-time.After(time.Minute):
				t.Fatalf("%s still waits a minute after the gate opened", c.name)
			}
		}
		wantEnds(t, w, "the worker handed over, passed over as stale")
		if onlyIdle(t, p, "gate", wr) == w {
			t.Error("the waiting call was served by the worker started before the git init")
		}
	})
}

// attackAsUserArg runs the test binary as an agent of a user other than
// root (attackAsUser), whose workers run in namespaces mapping their
// root to that user.
const attackAsUserArg = "-sandbox-test-attack-as-user"

// asUserProcesses is the process limit of the workers of the agent
// that attackAsUser plays.
const asUserProcesses = 16

// agentSecret is in the environment of the agent that attackAsUser
// plays.
const agentSecret = "LLM_API_KEY=sk-attack-secret"

// attackAsUser plays the agent as the user it runs as, in dir, and
// prints what each attack got, as JSON: name → answer or error.
func attackAsUser(dir, suid string) int {
	r := map[string]string{}
	ctx := context.Background()
	out := func(name, text string, err error) {
		if err != nil {
			text = "error: " + err.Error()
		}
		r[name] = text
	}
	work := filepath.Join(dir, "work")
	cfg := Config{Arg: workerArg, WorkDir: work, TempDir: dir, Environ: []string{}, Limits: Limits{Processes: asUserProcesses}}
	flat := cfg
	flat.NoNamespaces = true
	pf, err := NewPool(flat) // workers without namespaces: they see this process in /proc
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer pf.Close()
	cfg.Spares = 1
	pn, err := NewPool(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer pn.Close()
	run := func(p *Pool, name, id string, caps tool.Capability, a attackArgs) {
		raw, _ := json.Marshal(a)
		text, err := p.Call(ctx, id, caps, raw)
		out(name, text, err)
	}
	me := strconv.Itoa(os.Getpid())
	environ := "/proc/" + me + "/environ"
	rf := tool.ReadFiles | tool.Unsafe

	// While this process is dumpable, as it is for each start: a tool
	// with read_files, in a worker that sees it in /proc, and one in
	// namespaces of its own; and, as a control, a process of the same
	// user without Landlock. Every worker is started first, and the
	// spare is ready, since the end of each start makes this process
	// undumpable again.
	type spy struct {
		name, id string
		p        *Pool
		a        attackArgs
	}
	var spies []spy
	for _, w := range []struct {
		name string
		p    *Pool
	}{{"flat", pf}, {"ns", pn}} {
		spies = append(spies,
			spy{w.name + " environ", "atk_spy#" + w.name, w.p, attackArgs{Path: environ}},
			spy{w.name + " mem", "atk_open#" + w.name, w.p, attackArgs{Path: "/proc/" + me + "/mem"}},
			spy{w.name + " fd", "atk_readlink#" + w.name, w.p, attackArgs{Path: "/proc/" + me + "/fd/1"}})
	}
	for _, s := range spies {
		if err := s.p.Warm(ctx, s.id, rf); err != nil {
			out(s.name, "", err)
		}
	}
	if !waitSpares(pn, 1) {
		out("spare", "", errors.New("a spare failed to start"))
	}
	unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
	for _, s := range spies {
		run(s.p, s.name, s.id, rf, s.a)
	}
	ctl, err := exec.Command(os.Args[0], readArg, environ).Output()
	out("control environ", string(ctl), err)
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)

	// A tool that loops reading this process's environment while
	// workers start in namespaces, each start a dumpable moment.
	stop := filepath.Join(dir, "stop")
	var wg sync.WaitGroup
	wg.Go(func() {
		run(pf, "window environ", "atk_spy#window", rf, attackArgs{Path: environ, Stop: stop})
	})
	for i := range 12 {
		if err := pn.Warm(ctx, fmt.Sprintf("echo#%d", i), tool.Unsafe); err != nil {
			out("window starts", "", err)
		}
	}
	os.WriteFile(stop, nil, 0o644)
	wg.Wait()

	// Root in its namespace, mapped to this user.
	ex := tool.ReadFiles | tool.Exec | tool.Unsafe
	run(pn, "status", "atk_run#status", ex, attackArgs{Argv: []string{"/bin/cat", "/proc/self/status"}})
	run(pn, "suid exec", "atk_run#suid", ex, attackArgs{Argv: []string{suid, printIDsArg}})
	run(pn, "passwd", "atk_run#passwd", ex, attackArgs{Argv: []string{"/usr/bin/passwd", "-S", "root"}})
	run(pn, "shadow", "atk_run#shadow", ex, attackArgs{Argv: []string{"/bin/cat", "/etc/shadow"}})
	run(pn, "ulimit", "atk_run#ulimit", ex, attackArgs{Argv: []string{"/bin/sh", "-c", "ulimit -p 100000 && echo raised; ulimit -p"}})
	target := filepath.Join(work, "owned")
	os.WriteFile(target, nil, 0o644)
	wr := tool.WriteFiles | tool.Unsafe
	run(pn, "chown 0", "atk_chown#0", wr, attackArgs{Path: target, N: 0})
	run(pn, "chown 1", "atk_chown#1", wr, attackArgs{Path: target, N: 1})
	run(pn, "chown outside", "atk_chown#x", wr, attackArgs{Path: "/etc/hostname", N: 0})
	if fi, err := os.Stat(target); err == nil {
		out("owner", strconv.Itoa(int(fi.Sys().(*syscall.Stat_t).Uid)), nil)
	}

	// The process limit.
	run(pn, "nproc raise", "atk_nproc", tool.Exec|tool.Unsafe, attackArgs{})
	run(pn, "threads exec", "atk_threads#exec", ex, attackArgs{N: 64})
	run(pn, "threads", "atk_threads#noexec", rf, attackArgs{N: 64})
	// Its children do not hold the output, so that the call ends with the
	// bomb, not with their sleeps a second later.
	run(pn, "fork bomb", "atk_run#bomb", ex, attackArgs{Argv: []string{"/bin/sh", "-c",
		`i=0; while [ $i -lt 64 ]; do /bin/sh -c 'sleep 1 & sleep 1 & wait' >/dev/null 2>&1 & i=$((i+1)); done; echo started $i`}})
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// TestAttackAsUser runs attackAsUser as user nobody and checks each
// attack was denied.
func TestAttackAsUser(t *testing.T) {
	if testing.Short() {
		t.Skip("a long test (2 s of CPU, not parallel), which the full test command runs")
	}
	needNamespaces(t)
	needLandlock(t, 1)
	if os.Geteuid() != 0 {
		t.Skip("the test starts a program as another user, which takes root")
	}
	root := t.TempDir()
	for _, d := range []string{filepath.Dir(root), root} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(root, "sandbox.test")
	suid := filepath.Join(root, "suid.test")
	for _, f := range []string{exe, suid} {
		if err := copyFile(os.Args[0], f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(suid, 0o4755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{work, root} {
		if err := os.Chown(d, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(exe, attackAsUserArg, root, suid)
	cmd.Dir = work
	cmd.Env = []string{agentSecret}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("the agent as user %d: %v (%s)\nstderr:\n%s", nobody, err, outb, stderr.Bytes())
	}
	var r map[string]string
	if err := json.Unmarshal(outb, &r); err != nil {
		t.Fatalf("its report %q: %v", outb, err)
	}
	for k, v := range r {
		t.Logf("%s: %s", k, v)
	}
	// The control shows the window is real: a process of the same user
	// without Landlock reads the secret while the agent is dumpable.
	if !strings.Contains(r["control environ"], "sk-attack-secret") {
		t.Errorf("control: a process of the same user read %q from the dumpable agent, want the secret", r["control environ"])
	}
	for _, k := range []string{"flat environ", "ns environ", "window environ", "flat mem", "ns mem", "flat fd", "ns fd"} {
		v, ok := r[k]
		if !ok || strings.Contains(v, "sk-attack-secret") || strings.HasPrefix(v, "read:") || v == "opened" || strings.HasPrefix(v, "pipe:") || strings.HasPrefix(v, "/") {
			t.Errorf("%s: a tool got %q from the agent", k, v)
		}
	}
	if v := r["spare"]; v != "" {
		t.Errorf("the agent's spare: %s", v)
	}
	if v := r["window starts"]; v != "" {
		t.Errorf("starting workers while a tool spied: %s", v)
	}
	// No capabilities, no_new_privs, root only in the namespace.
	status := r["status"]
	for _, want := range []string{"CapInh:\t0000000000000000", "CapPrm:\t0000000000000000", "CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1", "Uid:\t0\t0\t0\t0"} {
		if !strings.Contains(status, want) {
			t.Errorf("a program a tool started: %q missing from its status:\n%s", want, status)
		}
	}
	if v := r["suid exec"]; v != "uid 0 euid 0\n" {
		t.Errorf("a set-user-ID root program a tool ran: %q, want no other user", v)
	}
	if !strings.HasPrefix(r["chown 1"], "error:") || !strings.HasPrefix(r["chown outside"], "error:") {
		t.Errorf("chown to an unmapped user: %q; of a file outside the workspace: %q; want both refused", r["chown 1"], r["chown outside"])
	}
	if r["owner"] != strconv.Itoa(nobody) {
		t.Errorf("the workspace file is owned by %q, want %d", r["owner"], nobody)
	}
	// Root only in its namespace: root's files stay closed.
	if v := r["shadow"]; !strings.HasPrefix(v, "error:") || strings.Contains(v, "root:") {
		t.Errorf("a program run as root in the worker's namespace read /etc/shadow: %q", v)
	}
	if v := r["ulimit"]; strings.Contains(v, "raised") {
		t.Errorf("a program raised its process limit: %q", v)
	}
	// The limit a tool finds is the pool's own: the checks of threads and
	// of the bomb below notice only one several times larger.
	if v := r["nproc raise"]; !strings.Contains(v, "EPERM") || !strings.Contains(v, fmt.Sprintf("setrlimit(%d→", asUserProcesses)) {
		t.Errorf("a tool raised its process limit, or found one other than %d: %q", asUserProcesses, v)
	}
	if v := r["threads exec"]; !strings.HasPrefix(v, "error:") && !strings.Contains(v, "no more") {
		t.Errorf("64 threads under a process limit of %d: %q", asUserProcesses, v)
	}
	// A tool without exec starts threads only, under the same bound.
	if v := r["threads"]; !strings.HasPrefix(v, "error:") && !strings.Contains(v, "no more") {
		t.Errorf("a tool without exec: 64 threads under a process limit of %d: %q", asUserProcesses, v)
	}
	// The bomb is stopped by the shell's fork failing or, when the
	// worker's runtime needs a thread while the bomb holds every slot, by
	// the worker's death, which ends the bomb with it: either is an error
	// for the model, and the bomb never starts its 64 children.
	if v := r["fork bomb"]; !strings.HasPrefix(v, "error:") || strings.Contains(v, "started") ||
		!strings.Contains(v, "fork") && !strings.Contains(v, "the process running it died") {
		t.Errorf("a fork bomb under a process limit of %d: %q, want it stopped", asUserProcesses, v)
	}
}

// TestAttackCannotDropNamespaces: a tool, with exec or without, cannot
// make the pool start its later workers without namespaces (a hello
// that says no_namespaces, see namespacesUnusable): it can cover no part
// of /proc, not even in namespaces of its own, and a hello it writes on
// its response pipe is read as its answer, which fails the call; the
// next workers, spares and started from spawn, have their namespaces.
func TestAttackCannotDropNamespaces(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	var log bytes.Buffer
	p := newPool(t, newDirs(t), func(c *Config) { keepSpare(c); c.Logger = slog.New(slog.NewTextHandler(&log, nil)) })
	for i, caps := range []tool.Capability{0, tool.Exec | tool.WriteFiles, tool.Unsafe | tool.Exec} {
		for n := range 2 {
			id := fmt.Sprintf("atk_coverproc#%d%d", i, n)
			out, err := call(t, p, id, caps, attackArgs{N: n})
			t.Logf("%s (%s): %q, %v", id, caps, out, err)
			if strings.Contains(out, ": ok") {
				t.Errorf("%s with %s: %s", id, caps, out)
			}
			for _, useSpares := range []bool{true, false} {
				k := workerKey{fmt.Sprintf("echo#%d%d%v", i, n, useSpares), caps}
				w, err := p.get(context.Background(), k, useSpares)
				if err != nil {
					t.Fatal(err)
				}
				p.put(w)
				if !w.enf.Namespaces || !w.namespaces {
					t.Errorf("after %s with %s, a worker (spare %v) has no namespaces: %+v", id, caps, useSpares, w.enf)
				}
			}
		}
	}
	if p.noNamespaces.Load() || strings.Contains(log.String(), "without namespaces") {
		t.Errorf("the pool dropped namespaces:\n%s", log.String())
	}
}
