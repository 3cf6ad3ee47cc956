//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// The tests of this file are the escapes a hostile tool author tried,
// each with the capabilities it declares and a positive control: the
// same act where a capability allows it. They run as root in CI, as the
// agent does in a container.

// needNamespaces skips a test where workers cannot have namespaces of
// their own.
func needNamespaces(t *testing.T) {
	t.Helper()
	if !userNamespaces() {
		t.Skip("this machine gives workers no user namespaces")
	}
}

// wantErrno checks that err is a tool error naming one of the errnos.
func wantErrno(t *testing.T, what string, err error, names ...string) {
	t.Helper()
	var e *registry.Error
	if errors.As(err, &e) && e.Kind == registry.KindTool {
		for _, n := range names {
			if strings.HasSuffix(e.Err.Error(), ": "+n) {
				return
			}
		}
	}
	t.Errorf("%s: got %v, want a tool error ending in one of %q", what, err, names)
}

func TestNoProcessesWithoutExec(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	p := newPool(t, newDirs(t), nil)
	for _, tc := range []struct{ id, errno string }{
		{"fork", "EPERM"},
		{"clone3", "ENOSYS"}, // so that a C library falls back to clone
		{"memfd_exec", "EPERM"},
	} {
		for _, caps := range []tool.Capability{tool.Unsafe, tool.Unsafe | tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env} {
			_, err := call(t, p, tc.id, caps, probeArgs{})
			wantErrno(t, tc.id+" with "+caps.String(), err, tc.errno)
		}
	}
	// With exec, a process starts; clone3 still answers ENOSYS (its
	// flags are out of the filter's sight), and a C library uses clone.
	caps := tool.Exec | tool.Unsafe
	if got, err := call(t, p, "fork", caps, probeArgs{}); err != nil || got != "forked" {
		t.Errorf("fork with exec: %q, %v; want forked", got, err)
	}
	_, err := call(t, p, "clone3", caps, probeArgs{})
	wantErrno(t, "clone3 with exec", err, "ENOSYS")
	// The worker becomes the program: its call crashes, where a refused
	// execveat would be a tool error. The program exits 42, unless the
	// pool, which sees the pipes close at the exec (they are
	// close-on-exec), kills it first.
	_, err = call(t, p, "memfd_exec", caps, probeArgs{})
	wantKind(t, "memfd_exec with exec", err, registry.KindCrashed, "")
}

// locked reports whether a process holds the lock on path.
func locked(t *testing.T, path string) bool {
	t.Helper()
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

func TestNothingOutlivesTheCall(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	caps := tool.Exec | tool.WriteFiles | tool.Unsafe

	// A daemon started in a call that ends normally is gone when the
	// answer arrives.
	p := newPool(t, d, nil)
	lock := filepath.Join(d.work, "lock")
	if got, err := call(t, p, "daemon", caps, probeArgs{Path: lock}); err != nil || got != "ready" {
		t.Fatalf("daemon: %q, %v; want ready", got, err)
	}
	if locked(t, lock) {
		t.Error("the daemon a call started outlived the call")
	}
	// The same, started from a thread that has ended since: the worker
	// must still be able to end it (with Landlock's signal scope, the
	// daemon was in a domain no thread of the worker had left, and the
	// worker tried to end it for good).
	lock1 := filepath.Join(d.work, "lock1")
	ctx1, cancel1 := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel1()
	got, err := p.Call(ctx1, "daemon_locked", caps, []byte(`{"path":"`+lock1+`"}`))
	if err != nil || got != "ready" {
		t.Fatalf("daemon_locked: %q, %v; want ready", got, err)
	}
	if locked(t, lock1) {
		t.Error("the daemon a call started from an ended thread outlived the call")
	}

	// One started in a call cut short (cancelled once the daemon holds
	// its lock, as a timeout would) is gone when its worker is reaped,
	// and does not keep the pool from closing by holding the worker's
	// stderr.
	p2 := newPool(t, d, nil)
	lock2 := filepath.Join(d.work, "lock2")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := p2.Call(ctx, "daemon_block", caps, []byte(`{"path":"`+lock2+`"}`))
		errc <- err
	}()
	for ctx.Err() == nil {
		if _, err := os.Stat(lock2); err == nil && locked(t, lock2) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	wantKind(t, "daemon_block", <-errc, registry.KindCancelled, "killed")
	if err := p2.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lock2); err != nil {
		t.Fatalf("the daemon never ran: %v", err)
	}
	if locked(t, lock2) {
		t.Error("the daemon of a call cut short outlived its worker")
	}
}

// TestSignalsStayInside: a worker's tool cannot signal the agent. In a
// PID namespace of its own the agent is not there to be named; without
// one, Landlock's signal scope refuses it.
func TestSignalsStayInside(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	needLandlock(t, 6)
	d := newDirs(t)
	agent := probeArgs{N: os.Getpid()}
	for _, c := range []struct {
		noNamespaces bool
		want         string
	}{{false, "no such process"}, {true, "EPERM"}} {
		p := newPool(t, d, func(cfg *Config) { cfg.NoNamespaces = c.noNamespaces })
		_, err := call(t, p, "signal", tool.Exec|tool.Unsafe, agent)
		var e *registry.Error
		if !errors.As(err, &e) || e.Kind != registry.KindTool || !strings.Contains(e.Err.Error(), c.want) {
			t.Errorf("signal to the agent, without namespaces %v: %v; want a tool error with %s", c.noNamespaces, err, c.want)
		}
	}
	// The probe can signal: its own worker, which is 1 in its namespace.
	p := newPool(t, d, nil)
	if got, err := call(t, p, "signal", tool.Exec|tool.Unsafe, probeArgs{N: 1}); err != nil || got != "ok" {
		t.Errorf("signal to its own worker: %q, %v; want ok", got, err)
	}
}

// TestPipesNotInherited: a program a tool starts does not get the
// worker's request and response pipes, through which it could read the
// next calls' arguments or write answers of its own.
func TestPipesNotInherited(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	got, err := call(t, p, "child_pipes", tool.Exec|tool.Unsafe, probeArgs{})
	if want := "3:false 4:false"; err != nil || got != want {
		t.Errorf("descriptors of a program the tool started: %q, %v; want %q", got, err, want)
	}
}

func TestInheritedDescriptors(t *testing.T) {
	needLandlock(t, 1)
	d := newDirs(t)
	secret := filepath.Join(d.other, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	// As a shell's 9< would leave it: open, without close-on-exec. It is
	// moved to a number no descriptor of the worker's own takes (the
	// runtime's poller and the worker's pipes take the lowest free ones),
	// so that EBADF, not another file of the worker's, is the answer to
	// a descriptor that was closed.
	low, err := syscall.Open(secret, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := unix.FcntlInt(uintptr(low), unix.F_DUPFD, 900) // F_DUPFD leaves close-on-exec off
	syscall.Close(low)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC != 0 {
		t.Fatalf("descriptor %d: flags %#x, %v; want it inherited", fd, flags, err)
	}
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.Exec | tool.Unsafe} {
		got, err := call(t, p, "fd", caps, probeArgs{N: fd})
		wantErrno(t, fmt.Sprintf("read of inherited descriptor %d with %s", fd, caps), err, "EBADF")
		if got != "" {
			t.Errorf("the inherited descriptor answered %q", got)
		}
	}
}

// inheritedLowArg runs the test binary as an agent that inherited, as
// from a shell's 5<, a descriptor at 5, the first number above the
// worker's pipes: it prints what it reads there itself, makes a pool
// and prints, one line each, what the fd_at probe reads at 5 with no
// capability and with read_files and exec.
const inheritedLowArg = "-sandbox-test-inherited-low"

func inheritedLow(dir string) int {
	buf := make([]byte, 64)
	n, _ := syscall.Pread(5, buf, 0)
	fmt.Printf("%q\n", buf[:max(n, 0)])
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer p.Close()
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.Exec | tool.Unsafe} {
		text, err := p.Call(context.Background(), "fd_at", caps, []byte(`{"n":5}`))
		fmt.Printf("%q %v\n", text, err)
	}
	return 0
}

// TestInheritedDescriptorsFromFive is TestInheritedDescriptors at the
// first descriptor the worker does not keep, 5: the agent's 3 and 4 are
// inherited too, and the worker's pipes take their place in it.
func TestInheritedDescriptorsFromFive(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	var files []*os.File
	for _, name := range []string{os.DevNull, os.DevNull, secret} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files = append(files, f)
	}
	cmd := exec.Command(os.Args[0], inheritedLowArg, t.TempDir())
	cmd.ExtraFiles = files // 3, 4 and 5, without close-on-exec
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the agent with descriptor 5 inherited: %v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 || lines[0] != `"s3cret"` {
		t.Fatalf("the agent printed %q, want what it read at 5 (the secret), then two lines", out)
	}
	for _, l := range lines[1:] {
		if strings.Contains(l, "s3cret") {
			t.Errorf("a tool read the agent's inherited descriptor 5: %s", l)
		}
	}
}

func TestOneToolPerWorker(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	// forge writes answers ahead into its response pipe: only its own
	// later calls could read them.
	if got, err := call(t, p, "forge", tool.Unsafe, probeArgs{}); err != nil || got != "forged" {
		t.Fatalf("forge: %q, %v", got, err)
	}
	for range 3 {
		if got, err := p.Call(context.Background(), "echo", tool.Unsafe, []byte(`{"a":1}`)); err != nil || got != `{"a":1}` {
			t.Errorf("echo after forge: %q, %v; want {\"a\":1}", got, err)
		}
	}
	if n := len(liveWorkers(p)); n != 2 {
		t.Errorf("%d live workers for two tools of the same capabilities, want 2", n)
	}

	// A worker refuses the calls of another tool.
	ctx := context.Background()
	w, err := p.get(ctx, workerKey{"fail", tool.Unsafe}, true)
	if err != nil {
		t.Fatal(err)
	}
	_, err, keep := w.call(ctx, "echo", []byte(`{}`), false)
	wantKind(t, "echo sent to fail's worker", err, registry.KindArguments, `serves tool "fail" only`)
	if !keep {
		t.Error("the worker was dropped after refusing a call")
	}
	p.put(w)
}

func TestCapabilitiesDropped(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	for _, caps := range []tool.Capability{tool.Unsafe, tool.Exec | tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		if got, err := call(t, p, "caps", caps, probeArgs{}); err != nil || got != "" {
			t.Errorf("capabilities held by a worker with %s: %q, %v; want none", caps, got, err)
		}
	}
	// Every thread's sets, as /proc tells them (a tool that reads files
	// can read it); the probe also fails for a worker of one thread,
	// which would make this test prove nothing.
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.Exec | tool.Unsafe} {
		if got, err := call(t, p, "threadcaps", caps, probeArgs{}); err != nil || got != "" {
			t.Errorf("capabilities held by a thread of a worker with %s: %q, %v; want none", caps, got, err)
		}
	}
}

func TestMetadataChanges(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, nil)
	f := filepath.Join(d.work, "f")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mode := func() os.FileMode {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}

	read := tool.ReadFiles | tool.Exec | tool.Unsafe
	_, err := call(t, p, "chmod", read, probeArgs{Path: f, Mode: 0o4777})
	wantErrno(t, "chmod without write_files", err, "EPERM")
	if m := mode(); m != 0o600 {
		t.Errorf("mode %v after a denied chmod, want 0600", m)
	}
	_, err = call(t, p, "mknod", read, probeArgs{Path: filepath.Join(d.work, "fifo"), Mode: syscall.S_IFIFO | 0o600})
	wantErrno(t, "mknod of a fifo without write_files", err, "EPERM", "EACCES")

	write := tool.WriteFiles | tool.Unsafe
	if got, err := call(t, p, "chmod", write, probeArgs{Path: f, Mode: 0o640}); err != nil || got != "ok" {
		t.Errorf("chmod with write_files: %q, %v", got, err)
	}
	if m := mode(); m != 0o640 {
		t.Errorf("mode %v after chmod with write_files, want 0640", m)
	}
	for _, dev := range []uint32{syscall.S_IFBLK, syscall.S_IFCHR} {
		path := filepath.Join(d.work, fmt.Sprintf("dev%o", dev))
		_, err := call(t, p, "mknod", write, probeArgs{Path: path, Mode: dev | 0o666})
		wantErrno(t, fmt.Sprintf("mknod of a device (%o) with write_files", dev), err, "EPERM")
		if exists(path) {
			t.Errorf("device node %s was made", path)
		}
	}
	fifo := filepath.Join(d.work, "fifo")
	if got, err := call(t, p, "mknod", write, probeArgs{Path: fifo, Mode: syscall.S_IFIFO | 0o600}); err != nil || got != "ok" {
		t.Errorf("mknod of a fifo with write_files: %q, %v", got, err)
	}
}

func TestVersionControlReadOnly(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	for _, dir := range []string{".git/hooks", ".hg", "src"} {
		if err := os.MkdirAll(filepath.Join(d.work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(d.work, ".git", "config")
	if err := os.WriteFile(config, []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, nil)
	caps := tool.WriteFiles | tool.ReadFiles | tool.Unsafe
	hook := filepath.Join(d.work, ".git", "hooks", "pre-commit")
	_, err := call(t, p, "create", caps, probeArgs{Path: hook})
	wantErrno(t, "planting a git hook", err, "EROFS")
	if exists(hook) {
		t.Error("a git hook was planted")
	}
	_, err = call(t, p, "unlink", caps, probeArgs{Path: config})
	wantErrno(t, "removing .git/config", err, "EROFS")
	_, err = call(t, p, "rename", caps, probeArgs{Path: filepath.Join(d.work, ".git")})
	wantErrno(t, "renaming .git", err, "EBUSY", "EROFS")
	_, err = call(t, p, "create", caps, probeArgs{Path: filepath.Join(d.work, ".hg", "hgrc")})
	wantErrno(t, "writing .hg/hgrc", err, "EROFS")
	if !exists(config) {
		t.Error(".git/config is gone")
	}
	// The rest of the workspace is writable.
	for _, path := range []string{filepath.Join(d.work, "src", "main.go"), filepath.Join(d.work, ".gitignore")} {
		if got, err := call(t, p, "create", caps, probeArgs{Path: path}); err != nil || got != "ok" {
			t.Errorf("create %s: %q, %v; want ok", path, got, err)
		}
	}
}

func TestPrivateTempDir(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, nil)
	if got, err := call(t, p, "tmpcreate", tool.WriteFiles|tool.Unsafe, probeArgs{Path: "scratch"}); err != nil || got != "ok" {
		t.Errorf("create in TMPDIR with write_files: %q, %v; want ok", got, err)
	}
	_, err := call(t, p, "tmpcreate", tool.Unsafe, probeArgs{Path: "scratch"})
	wantErrno(t, "create in TMPDIR without write_files", err, "EACCES")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, err := os.ReadDir(d.temp); err != nil || len(ents) != 0 {
		t.Errorf("the temp directory holds %v (%v) after Close, want nothing: each worker's goes with it", ents, err)
	}
}

func TestParentEnvironmentOutOfReach(t *testing.T) {
	needLandlock(t, 1)
	environ := fmt.Sprintf("/proc/%d/environ", os.Getpid())
	for _, noNS := range []bool{false, true} {
		t.Run(fmt.Sprint("namespaces=", !noNS), func(t *testing.T) {
			if !noNS {
				needNamespaces(t)
			}
			p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = noNS })
			got, err := call(t, p, "read", tool.ReadFiles|tool.Unsafe, probeArgs{Path: environ})
			if err == nil || got != "" {
				t.Errorf("a worker with read_files read %s: %q, %v", environ, got, err)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) {
		c.Limits = Limits{Memory: 256 << 20, Files: 64, FileSize: 1 << 20}
	})
	t.Run("memory", func(t *testing.T) {
		if raceEnabled {
			t.Skip("the race detector's shadow memory counts as data: no data limit in race builds")
		}
		if got, err := call(t, p, "alloc", tool.Unsafe, probeArgs{N: 64}); err != nil || got != "64" {
			t.Errorf("64 MiB under a 256 MiB limit: %q, %v", got, err)
		}
		_, err := call(t, p, "alloc", tool.Unsafe, probeArgs{N: 512})
		// The runtime dies of it, as "out of memory", "cannot allocate
		// memory" or a fault, as the allocation that fails happens to be.
		wantKind(t, "512 MiB over a 256 MiB limit", err, registry.KindCrashed, "")
	})
	t.Run("files", func(t *testing.T) {
		got, err := call(t, p, "nofile", tool.Unsafe, probeArgs{})
		var before, more int
		if _, serr := fmt.Sscanf(got, "%d open, %d more, then EMFILE", &before, &more); err != nil || serr != nil || before+more != 64 {
			t.Errorf("descriptors under a limit of 64: %q, %v; want them to add up to 64", got, err)
		}
	})
	t.Run("file size", func(t *testing.T) {
		caps := tool.WriteFiles | tool.Unsafe
		if got, err := call(t, p, "tmpcreate", caps, probeArgs{Path: "at", N: 1 << 20}); err != nil || got != "ok" {
			t.Errorf("a file of 1 MiB under a 1 MiB limit: %q, %v", got, err)
		}
		_, err := call(t, p, "tmpcreate", caps, probeArgs{Path: "past", N: 1<<20 + 1})
		wantErrno(t, "a file of 1 MiB and a byte", err, "EFBIG")
	})
}

func TestDeniedToEveryTool(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	all := tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe
	// A process in a user namespace of its own would hold every
	// capability there, and each takes one of the machine's: a tool that
	// took them all would leave the next workers without namespaces.
	for _, id := range []string{"ptrace", "unshare", "clone_newuser"} {
		_, err := call(t, p, id, all, probeArgs{})
		wantErrno(t, id+" with every capability", err, "EPERM")
	}
}

func TestWorkerLimit(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), func(c *Config) { c.MaxWorkers = 2 })
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := call(t, p, fmt.Sprintf("nap%d", i%4), tool.Unsafe, probeArgs{N: 5})
			errs <- err
		}()
	}
	// Never more than two live workers, whatever the calls.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for {
		if n := len(p.slots); n > 2 {
			t.Errorf("%d worker slots taken, limit 2", n)
		}
		if n := len(processes(p, true)); n > 2 {
			t.Errorf("%d live worker processes, spares included, limit 2", n)
		}
		select {
		case <-done:
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("a call under the worker limit: %v", err)
				}
			}
			return
		case <-time.After(time.Millisecond):
		}
	}
}

func TestQueuedCallHonoursItsContext(t *testing.T) {
	// No spare: the one slot is the blocking call's worker's.
	p := newPool(t, newDirs(t), func(c *Config) { c.MaxWorkers, c.Spares = 1, 0 })
	blocked := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, err := p.Call(ctx, "block", tool.Unsafe, nil)
		blocked <- err
	}()
	for len(p.slots) == 0 {
		time.Sleep(time.Millisecond)
	}
	qctx, qcancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer qcancel()
	_, err := p.Call(qctx, "echo", tool.Unsafe, nil)
	wantKind(t, "a call queued behind the only worker", err, registry.KindTimeout, "waited for a worker")
	cancel()
	wantKind(t, "the blocking call", <-blocked, registry.KindCancelled, "killed")
	// The slot is free again: the next call runs.
	if got, err := call(t, p, "echo", tool.Unsafe, probeArgs{}); err != nil || got != "{}" {
		t.Errorf("echo after the queue cleared: %q, %v", got, err)
	}
}

func TestIdleWorkers(t *testing.T) {
	t.Run("evicted for another tool at the limit", func(t *testing.T) {
		p := newPool(t, newDirs(t), func(c *Config) { c.MaxWorkers = 1 })
		if _, err := call(t, p, "echo", tool.Unsafe, probeArgs{}); err != nil {
			t.Fatal(err)
		}
		_, err := call(t, p, "fail", tool.Unsafe, probeArgs{})
		wantKind(t, "fail, with echo's worker idle at the limit", err, registry.KindTool, "the tool failed")
	})
	t.Run("reused while warm, reaped when idle", func(t *testing.T) {
		p := newPool(t, newDirs(t), func(c *Config) { c.IdleTimeout = 200 * time.Millisecond })
		if _, err := call(t, p, "echo", tool.Unsafe, probeArgs{}); err != nil {
			t.Fatal(err)
		}
		first := liveWorkers(p)
		if _, err := call(t, p, "echo", tool.Unsafe, probeArgs{}); err != nil {
			t.Fatal(err)
		}
		if again := liveWorkers(p); len(first) != 1 || len(again) != 1 || first[0] != again[0] {
			t.Errorf("workers %v then %v: want the same one reused", first, again)
		}
		for len(liveWorkers(p)) > 0 {
			time.Sleep(10 * time.Millisecond) // the test's own timeout bounds this
		}
	})
}

func TestWithoutNamespacesReported(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	caps := tool.Exec | tool.WriteFiles | tool.Unsafe
	p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true })
	enf, err := p.Enforcement(context.Background(), "x", caps)
	if err != nil {
		t.Fatal(err)
	}
	if enf.Namespaces || len(enf.Missing) != 4 {
		t.Errorf("enforcement without namespaces: %+v; want namespaces false and four gaps named (processes outlive the call and are not bounded, other programs' System V objects, .git writable)", enf)
	}
	p = newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true; c.Require = true })
	_, err = p.Enforcement(context.Background(), "x", caps)
	wantKind(t, "without namespaces, required", err, registry.KindRefused, "outlive the call")
}

func TestUndumpable(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode     string
		readable bool
	}{
		{"dumpable", true}, // the positive control: the same reader reads it
		{"undumpable", false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			holder := exec.Command(exe, holdArg, tc.mode)
			holder.Env = []string{"LLM_API_KEY=sk-held-secret"}
			in, err := holder.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := holder.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := holder.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { in.Close(); holder.Wait() }()
			if line, _ := bufio.NewReader(out).ReadString('\n'); line != "holding\n" {
				t.Fatalf("holder said %q", line)
			}
			got, err := exec.Command(exe, readArg, fmt.Sprintf("/proc/%d/environ", holder.Process.Pid)).Output()
			if err != nil {
				t.Fatal(err)
			}
			if read := strings.Contains(string(got), "sk-held-secret"); read != tc.readable {
				t.Errorf("the %s process's environment read by the same user: %q; want readable %t", tc.mode, got, tc.readable)
			}
		})
	}
}

// TestWorkerUndumpable: a worker without namespaces, restricted to its
// tool, is not dumpable, so a process of the same user without
// capabilities cannot open its /proc files (environ, mem): the variables
// of a tool with tool.Env, set after its start, are in its memory;
// without Landlock that is what keeps a tool in another such worker out. TestUndumpable's dumpable holder
// shows the same reader reads a dumpable process's. (A worker in
// namespaces is in a user namespace its user owns, which gives every
// process of that user every capability over it: see docs/security.md.)
func TestWorkerUndumpable(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	caps := tool.Env | tool.Unsafe
	p := newPool(t, newDirs(t), func(c *Config) {
		c.NoNamespaces = true
		c.Environ = []string{"TOOL_TOKEN=sk-worker-secret"}
		c.Env = []string{"TOOL_TOKEN"}
	})
	// The control: the secret is in the worker's environment.
	text, err := call(t, p, "env", caps, probeArgs{})
	if err != nil || !strings.Contains(text, "TOOL_TOKEN=sk-worker-secret") {
		t.Fatalf("the tool's environment: %q, %v; want TOOL_TOKEN's secret in it", text, err)
	}
	w := onlyIdle(t, p, "env", caps)
	got, err := exec.Command(exe, readArg, fmt.Sprintf("/proc/%d/environ", w.pid())).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "EACCES\n" {
		t.Errorf("a process of the same user without capabilities read the worker's environment: %q, want EACCES", got)
	}
}

func TestBusyToolGetsAnotherWorker(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	if err := p.Warm(context.Background(), "nap", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	// The tool's only worker is busy for long: the next call of the tool
	// gets a worker started for it meanwhile, and ends first.
	long := make(chan error, 1)
	go func() {
		_, err := call(t, p, "nap", tool.Unsafe, probeArgs{N: 60_000})
		long <- err
	}()
	idle := func() int {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.idle[workerKey{"nap", tool.Unsafe}])
	}
	for idle() > 0 {
		time.Sleep(time.Millisecond)
	}
	if got, err := call(t, p, "nap", tool.Unsafe, probeArgs{N: 1}); err != nil || got != "ok" {
		t.Errorf("the second call: %q, %v", got, err)
	}
	select {
	case err := <-long:
		t.Errorf("the long call ended (%v) before the short one could", err)
	default:
	}
	if n := len(liveWorkers(p)); n != 2 {
		t.Errorf("%d live workers for a tool with two calls at once, want 2: %s", n, describeWorkers(p))
	}
}

// describeWorkers lists the pool's live workers, for a failure's message:
// each one's tool, whether it is a spare, whether it has exited, and
// whether it started in namespaces.
func describeWorkers(p *Pool) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for w := range p.live {
		exited := false
		select {
		case <-w.exited:
			exited = true
		default:
		}
		out = append(out, fmt.Sprintf("{pid %d tool %q spare %t exited %t namespaces %t}", w.pid(), w.key.id, w.spare, exited, w.namespaces))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
