//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// Each test of this file fails on the code before its fix. The probes
// are the r6_ tools of probes6_linux_test.go.

// TestNoStackMappingsPastTheLimit: the memory limit (RLIMIT_DATA)
// counts private writable mappings, but not those the kernel takes for
// stack: a private anonymous mapping made with MAP_GROWSDOWN is one, of
// any size, and nothing else bounds it. A tool without exec held 512
// MiB that way under a 64 MiB limit, kept across calls, and could take
// the machine's memory, as shared memory could before it was refused.
func TestNoStackMappingsPastTheLimit(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := limitedPool(t, newDirs(t))
	limitHolds(t, p)
	for _, caps := range withoutExec {
		got, err := call(t, p, "r6_growsdown", caps, r6Args{N: 512})
		wantDenied(t, "a mapping growing down, without exec, "+caps.String(), err)
		if err == nil {
			t.Errorf("%s: 512 MiB under a 256 MiB memory limit: %q", caps, got)
		}
	}
	// The positive control: a tool with exec, whose programs may share
	// memory the limit does not count, may map one.
	if got, err := call(t, p, "r6_growsdown", tool.Exec|tool.Unsafe, r6Args{N: 16}); err != nil || got != "16 MiB touched" {
		t.Errorf("a mapping growing down with exec: %q, %v; want 16 MiB touched", got, err)
	}
}

// fileVersion reads the generation number of path (FS_IOC_GETVERSION).
func fileVersion(t *testing.T, path string) int64 {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var v int64
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), 0x80087601, uintptr(unsafe.Pointer(&v))); e != 0 {
		t.Skipf("this file system keeps no generation numbers: %v", e)
	}
	return v
}

// TestNoMetadataIoctlsWithoutWriteFiles: without write_files "nothing is
// written" and a file's metadata stays as it is. The filter denies the
// ioctls that set a file's flags, but ext4 takes others on a descriptor
// opened only for reading, from the file's owner (the worker's root is
// the agent's user): FS_IOC_SETVERSION and ext4's own form set the
// file's generation number (what NFS file handles hold), of any file the
// tool can read; on file systems that have them, FS_IOC_ENABLE_VERITY
// makes a file read-only for good and FS_IOC_SET_ENCRYPTION_POLICY
// encrypts an empty directory (their verdicts are in TestFilterVerdicts).
func TestNoMetadataIoctlsWithoutWriteFiles(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	f := filepath.Join(d.other, "f")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := fileVersion(t, f)
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		for _, req := range []int{0x40087602, 0x40086604} {
			_, err := call(t, p, "r6_ioctl", caps, r6Args{Path: f, N: req, M: int(before + 1)})
			wantDenied(t, fmt.Sprintf("ioctl %#x (set the generation) without write_files, %s", req, caps), err)
			if v := fileVersion(t, f); v != before {
				t.Errorf("a worker with %s set the generation of %s from %d to %d", caps, f, before, v)
				before = v
			}
		}
	}
	// The positive control: with write_files, in the workspace.
	w := filepath.Join(d.work, "mine")
	if err := os.WriteFile(w, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := call(t, p, "r6_ioctl", tool.ReadFiles|tool.WriteFiles|tool.Unsafe, r6Args{Path: w, N: 0x40087602, M: 4242}); err != nil || got != "ioctl: 0" || fileVersion(t, w) != 4242 {
		t.Errorf("FS_IOC_SETVERSION with write_files in the workspace: %q, %v; want ioctl: 0", got, err)
	}
}

// TestNoLeases: nothing a tool does affects the user's machine after its
// call. A read lease (fcntl F_SETLEASE), which the owner of a file may
// take on a descriptor opened for reading, holds back every other
// process that opens the file for writing or truncates it until the
// lease is given up or the kernel breaks it, after its lease-break-time
// (45 s by default): the worker's root is the agent's user, so a tool
// that can read a file (its worker kept after the call, for a minute)
// stalls the user's editor, git or the agent itself on any file the
// user owns.
func TestNoLeases(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	p := newPool(t, d, nil)
	for i, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		f := filepath.Join(d.work, fmt.Sprint("leased", i))
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := call(t, p, "r6_lease", caps, r6Args{Path: f})
		wantDenied(t, "a read lease, "+caps.String(), err)
		// Opened without blocking, a file under a lease answers
		// EWOULDBLOCK at once.
		fd, err := unix.Open(f, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Errorf("after the call of a worker with %s, opening %s for writing: %v (a lease holds it)", caps, f, err)
			continue
		}
		unix.Close(fd)
	}
}

// TestTerminalsOutOfReach: a tool with read_files "reads anywhere", but
// a terminal is not a file at rest: what is typed in it goes to the
// program that reads it first. The worker's root is the agent's user,
// who owns its terminals (/dev/pts/N), and its mount namespace kept the
// host's devpts: a tool read what was typed in another terminal of the
// user (a password typed to sudo there), and could leave a goroutine
// reading the agent's own terminal for as long as its worker lives,
// taking the user's answers to the agent's confirmations.
func TestTerminalsOutOfReach(t *testing.T) {
	needNamespaces(t)
	m, pts := openTerminal(t)
	// The user's side stays open, as a shell's would.
	s, err := unix.Open(pts, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(s)
	if _, err := unix.Write(m, []byte("hunter2\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	p := newPool(t, newDirs(t), nil)
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r6_readdev", caps, r6Args{Path: pts})
		if err == nil || strings.Contains(got, "hunter2") {
			t.Errorf("a worker with %s read the user's terminal %s: %q, %v", caps, pts, got, err)
		}
	}
	// What was typed is still there for the user's program.
	buf := make([]byte, 64)
	unix.SetNonblock(s, true)
	if k, err := unix.Read(s, buf); err != nil || !strings.Contains(string(buf[:k]), "hunter2") {
		t.Errorf("the terminal's own reader got %q, %v; want what was typed", buf[:max(k, 0)], err)
	}
}

// TestInotifyInstancesBounded: nothing a tool does affects the user's
// machine after its call. The kernel counts inotify instances per user,
// in every user namespace up to the first, where the user may have 128
// (fs.inotify.max_user_instances) machine-wide; a worker's own user
// namespace set no bound of its own. A tool with no capability at all
// made all 128 of the agent's user and kept them after its call: the
// agent's inotify_init1 failed with EMFILE, and so would an editor's
// file watcher, or, for root, a system daemon's.
func TestInotifyInstancesBounded(t *testing.T) {
	needNamespaces(t)
	limit, ok := readSysctl("/proc/sys/fs/inotify/max_user_instances")
	if !ok {
		t.Skip("no inotify limit here")
	}
	p := newPool(t, newDirs(t), nil)
	held := 0
	for i, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, fmt.Sprint("r6_inotify_instances#", i), caps, r6Args{N: 4 * limit})
		var n int
		if _, serr := fmt.Sscanf(got, "%d made", &n); err != nil || serr != nil {
			t.Fatalf("inotify instances with %s: %q, %v", caps, got, err)
		}
		held += n
		t.Logf("a worker with %s made %d inotify instances (%q) of the user's %d", caps, n, got, limit)
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	for i, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		call(t, p, fmt.Sprint("r6_inotify_instances#", i), caps, r6Args{M: 1})
	}
	if err != nil {
		t.Errorf("with two workers holding %d inotify instances, the agent's inotify_init1: %v", held, err)
	} else {
		unix.Close(fd)
	}
	if held > limit/2 {
		t.Errorf("two workers held %d of the user's %d inotify instances; want at most a 32nd each", held, limit)
	}
}

// TestNestedSearchNotHeldByAFifo: nothing a tool does affects the agent
// after its call. The pool's search for nested repositories, in the
// agent, reads the commondir file of the git directory each .git file
// of the workspace names; a tool with write_files may make a fifo
// ("files, directories, fifos and sockets may be made") and a .git file
// that names its directory. At the agent's next start in that
// workspace, the search blocked for good opening the fifo: every call of
// a tool with write_files waited for it until its timeout, and Close,
// which waits for the search, never returned, so the agent never exited.
func TestNestedSearchNotHeldByAFifo(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	sub := filepath.Join(d.work, "sub")
	fifo := filepath.Join(sub, "g", "commondir")
	p := newPool(t, d, nil)
	caps := tool.WriteFiles | tool.Unsafe
	for _, c := range []struct {
		id string
		a  any
	}{
		{"hx_write", hostileArgs{Path: filepath.Join(sub, ".git"), Value: "gitdir: g\n"}},
		{"hx_write", hostileArgs{Path: filepath.Join(sub, "g", "HEAD"), Value: "ref: refs/heads/main\n"}},
		{"mknod", probeArgs{Path: fifo, Mode: unix.S_IFIFO | 0o644}},
	} {
		if got, err := call(t, p, c.id, caps, c.a); err != nil {
			t.Fatalf("planting with %s: %q, %v", c.id, got, err)
		}
	}
	// Whatever happens, the fifo is opened for writing once the test
	// ends, which lets a search blocked on it go on.
	defer func() {
		if fd, err := unix.Open(fifo, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0); err == nil {
			unix.Close(fd)
		}
	}()

	// The agent's next start in the workspace.
	next, err := NewPool(Config{Arg: workerArg, WorkDir: d.work, TempDir: d.temp, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if got, err := next.Call(ctx, "echo", caps, []byte("after")); err != nil || got != "after" {
		t.Errorf("a call with write_files at the next start: %q, %v; want after", got, err)
	}
	closed := make(chan struct{})
	go func() {
		next.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Errorf("Close did not return within 5 s: the search for nested repositories is blocked on %s", fifo)
	}
}

// TestNoSocketBuffersPastTheLimit: a tool without exec "has no other
// memory" than what the data limit counts. A unix stream socketpair,
// which the filter allowed without network ("it reaches nothing
// outside the process"), holds what is written to it in the kernel, as
// much as its send buffer, which the socket may grow to twice
// net.core.wmem_max: a tool with no capability held 8 GiB in 511 pairs
// under a 64 MiB limit on a machine where wmem_max is 4 MiB (225 MiB
// with the default buffers), kept across calls.
func TestNoSocketBuffersPastTheLimit(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	// The default limit: under 64 MiB a loaded machine's runtime
	// threads may take a worker's whole data limit (see
	// TestSharedMemoryLimited), and the denial is what is checked.
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r6_sockfill", caps, r6Args{M: 64})
		wantDenied(t, "a socket pair without exec or network, "+caps.String(), err)
		if err == nil {
			t.Errorf("%s: %s in socket buffers, which no limit counts", caps, got)
		}
	}
	// The positive control: a tool with exec, whose programs may make
	// pairs (and share memory the limit does not count).
	if got, err := call(t, p, "r6_sockfill", tool.Exec|tool.Unsafe, r6Args{M: 16, N: 1}); err != nil || got != "16 MiB queued" {
		t.Errorf("socket pairs with exec: %q, %v; want 16 MiB queued", got, err)
	}
}

// TestNoStackGrowthPastTheLimit: the data limit does not count the main
// thread's stack, which the kernel grows down, on a fault below it, as
// far as RLIMIT_STACK allows; a tool may raise its soft limit to the hard
// one, unlimited most often. A tool without exec touched 400 MiB below
// its initial stack under a 256 MiB limit, and could have gone on until
// it met the memory mapped below.
func TestNoStackGrowthPastTheLimit(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	p := limitedPool(t, d)
	for _, caps := range withoutExec {
		got, err := call(t, p, "r6_stackgrow", caps, r6Args{N: 400})
		if err == nil || !strings.Contains(err.Error(), "stack limit") {
			t.Errorf("%s: a stack of 400 MiB under a 256 MiB memory limit: %q, %v; want the stack limit to stop it", caps, got, err)
		}
	}
	// The positive control: with exec, whose programs may need a larger
	// stack, the limit stays as the agent's.
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_STACK, &rl); err != nil || rl.Max < 64<<20 {
		t.Skipf("the agent's hard stack limit is %d: no control", rl.Max)
	}
	if got, err := call(t, p, "r6_stackgrow", tool.Exec|tool.Unsafe, r6Args{N: 32}); err != nil || got != "32 MiB touched" {
		t.Errorf("a stack of 32 MiB with exec: %q, %v; want 32 MiB touched", got, err)
	}
}

// stackUnlimitedArg runs the test binary as an agent started with its
// soft stack limit raised to its hard one (`ulimit -s unlimited`, where
// the hard limit is unlimited): it makes a pool whose memory limit is
// 256 MiB and prints what r6_stackgrow answers, one line each, for 400
// MiB without exec and for 32 MiB with exec.
const stackUnlimitedArg = "-sandbox-test-stack-unlimited"

func stackUnlimited(dir string) int {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_STACK, &rl); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rl.Cur = rl.Max
	if err := unix.Setrlimit(unix.RLIMIT_STACK, &rl); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, Limits: Limits{Memory: 256 << 20}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer p.Close()
	for _, c := range []struct {
		caps tool.Capability
		args string
	}{{tool.Unsafe, `{"n":400}`}, {tool.Exec | tool.Unsafe, `{"n":32}`}} {
		text, err := p.Call(context.Background(), "r6_stackgrow", c.caps, []byte(c.args))
		fmt.Printf("%q %v\n", text, err)
	}
	return 0
}

// TestNoStackGrowthPastTheLimitUnlimited is TestNoStackGrowthPastTheLimit
// for an agent whose soft stack limit is above the worker's bound, as
// after `ulimit -s unlimited`: the workers inherit it, and a tool without
// exec must still find its hard limit at the bound, not at its soft
// limit. With the kernel's default soft limit, the bound itself, the
// test above cannot tell the two apart.
func TestNoStackGrowthPastTheLimitUnlimited(t *testing.T) {
	t.Parallel()
	if raceEnabled {
		t.Skip("no data limit in race-detector builds")
	}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_STACK, &rl); err != nil || rl.Max < 512<<20 {
		t.Skipf("the hard stack limit is %d: no room to raise the soft one past 400 MiB", rl.Max)
	}
	out, err := exec.Command(os.Args[0], stackUnlimitedArg, t.TempDir()).Output()
	if err != nil {
		t.Fatalf("the agent with its stack limit raised: %v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("the agent printed %q, want two lines", out)
	}
	if !strings.Contains(lines[0], "stack limit") {
		t.Errorf("without exec, a stack of 400 MiB under a 256 MiB memory limit: %s; want the stack limit to stop it", lines[0])
	}
	if lines[1] != `"32 MiB touched" <nil>` {
		t.Errorf("with exec, a stack of 32 MiB: %s; want it touched", lines[1])
	}
}

// TestNoPageTablesPastTheLimit: the data limit counts writable private
// mappings, not the page tables of the others: a tool without exec
// mapped 256 GiB of anonymous memory read-only (no huge pages) and read
// a byte of every 2 MiB, which took 512 MiB of page tables, kernel
// memory, under a 256 MiB limit; the address space holds 128 TiB.
func TestNoPageTablesPastTheLimit(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	p := limitedPool(t, d)
	for _, caps := range withoutExec {
		if got, err := call(t, p, "r6_pagetables", caps, r6Args{N: 160}); err == nil {
			t.Errorf("%s: 160 GiB read, 320 MiB of page tables, under a 256 MiB memory limit: %q", caps, got)
		}
	}
	// The control: with exec the address space is the agent's.
	if got, err := call(t, p, "r6_pagetables", tool.Exec|tool.Unsafe, r6Args{N: 160, M: 1}); err != nil {
		t.Errorf("160 GiB mapped with exec: %q, %v", got, err)
	}
}

// TestPendingSignalsBounded: nothing a tool does affects the user's
// machine after its call. The kernel counts the signals queued and the
// POSIX timers of all the processes of a user together, against the
// RLIMIT_SIGPENDING of the process that asks for one more: a tool with
// no capability made as many timers as its limit, the agent's user's
// (96,369 here), kept them after its call, and the agent's timer_create
// failed with EAGAIN, as would the user's other programs' timers and
// real-time signals.
func TestPendingSignalsBounded(t *testing.T) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_SIGPENDING, &rl); err != nil || rl.Cur == unix.RLIM_INFINITY {
		t.Skip("no bound on pending signals here")
	}
	p := newPool(t, newDirs(t), nil)
	got, err := call(t, p, "r6_timers", tool.Unsafe, r6Args{N: int(rl.Cur) + 1})
	var n int
	if _, serr := fmt.Sscanf(got, "%d made", &n); err != nil || serr != nil {
		t.Fatalf("timers: %q, %v", got, err)
	}
	if n > int(rl.Cur)/16 {
		t.Errorf("a worker made %d POSIX timers of its user's %d; want at most a 32nd", n, rl.Cur)
	}
	var id int32
	sev := make([]byte, 64)
	*(*int32)(unsafe.Pointer(&sev[12])) = 1 // SIGEV_NONE
	if _, _, e := syscall.Syscall(unix.SYS_TIMER_CREATE, unix.CLOCK_MONOTONIC, uintptr(unsafe.Pointer(&sev[0])), uintptr(unsafe.Pointer(&id))); e != 0 {
		t.Errorf("with a worker holding %d timers, the agent's timer_create: %v", n, e)
	} else {
		syscall.Syscall(unix.SYS_TIMER_DELETE, uintptr(id), 0, 0)
	}
}

// TestNoSharedZeroMapping: a shared mapping of /dev/zero is shared memory
// (shmem), which the data limit does not count, like the shared anonymous
// mappings refused to tools without exec; seccomp cannot tell which file
// a mapping is of. A tool with read_files, which may open /dev/zero, held
// 512 MiB that way under a 256 MiB limit, kept across calls. A worker's
// /dev/zero is /dev/full now, which reads as zeros and cannot be mapped.
func TestNoSharedZeroMapping(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	d := newDirs(t)
	p := limitedPool(t, d)
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r6_mapshared", caps, r6Args{Path: "/dev/zero", N: 512})
		if err == nil {
			t.Errorf("%s: a shared mapping of /dev/zero, 512 MiB under a 256 MiB memory limit: %q", caps, got)
		}
		// /dev/zero still reads as zeros.
		if got, err := call(t, p, "r6_readdev", caps, r6Args{Path: "/dev/zero"}); err != nil || got != "read: "+strings.Repeat("\x00", 256) {
			t.Errorf("%s: reading /dev/zero: %q, %v; want 256 zeros", caps, got, err)
		}
	}
	// The control: a file of the workspace may be mapped shared and read.
	f := filepath.Join(d.work, "data")
	if err := os.WriteFile(f, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := call(t, p, "r6_mapshared", tool.ReadFiles|tool.Unsafe, r6Args{Path: f, N: 1}); err != nil || got != "1 MiB read (0)" {
		t.Errorf("a shared mapping of a file: %q, %v; want 1 MiB read (0)", got, err)
	}
}

// withoutExec are the capabilities a tool without exec is tried with:
// none but unsafe (which grants nothing at run time), and all the others.
var withoutExec = []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe}

// limitedPool returns a pool of d whose workers' memory limit is 256 MiB,
// not less: under 64 MiB a loaded machine's runtime threads may take a
// worker's whole data limit (see TestSharedMemoryLimited). It skips the
// test under the race detector, whose builds set no data limit.
func limitedPool(t *testing.T, d dirs) *Pool {
	t.Helper()
	if raceEnabled {
		t.Skip("no data limit in race-detector builds")
	}
	return newPool(t, d, func(c *Config) { c.Limits.Memory = 256 << 20 })
}

// limitHolds is the control of a test of memory past p's limit: 512 MiB
// of ordinary private memory fails.
func limitHolds(t *testing.T, p *Pool) {
	t.Helper()
	if _, err := call(t, p, "alloc", tool.Unsafe, probeArgs{N: 512}); err == nil {
		t.Fatal("512 MiB of private memory under a 256 MiB limit: no error")
	}
}

// openTerminal opens a new terminal's controlling side, closed when the
// test ends, and returns it with the path of the terminal, the user's
// side; it skips the test where the machine makes no terminals.
func openTerminal(t *testing.T) (m int, pts string) {
	t.Helper()
	m, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no terminals here: %v", err)
	}
	t.Cleanup(func() { unix.Close(m) })
	if err := unix.IoctlSetPointerInt(m, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(m, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	return m, fmt.Sprintf("/dev/pts/%d", n)
}
