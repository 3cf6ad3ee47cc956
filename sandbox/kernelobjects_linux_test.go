//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// Each test of this file fails on the code before its fix. The probes
// are the r7_ tools of probes7_linux_test.go.

// orphanArg runs the test binary as a program with a pool whose one
// call, of r7_pdeathsig with no capability, sets its worker's
// parent-death signal to 0 and blocks: it prints the worker's pid once
// the tool says it did, or the call's error when it could not, and
// waits to be killed.
const orphanArg = "-sandbox-test-pool-to-orphan"

func poolToOrphan(dir string) int {
	// A guard, not a bound: the test waits for the line below.
	time.AfterFunc(time.Minute, func() {
		fmt.Fprintln(os.Stderr, "no answer from the worker within a minute")
		os.Exit(2)
	})
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := tool.WithProgress(context.Background(), func(context.Context, float64, float64, string) {
		p.mu.Lock()
		for w := range p.live {
			fmt.Println("worker", w.pid())
		}
		p.mu.Unlock()
	})
	_, err = p.Call(ctx, "r7_pdeathsig", tool.Unsafe, []byte(`{"n":0,"m":1}`))
	fmt.Printf("refused: %v\n", err)
	select {}
}

// TestWorkerKeepsItsParentDeathSignal: every process of a worker ends
// with the agent, even when the agent is killed and can neither kill
// nor reap it; what ends the worker then is its parent-death signal
// (SIGKILL), which the kernel sends when the agent dies. A tool with no
// capability set its worker's to 0 (prctl(PR_SET_PDEATHSIG)), or to a
// signal it ignores, and blocked in its call: the worker, reparented,
// read no end of its request pipe and ran on for ever after the agent
// was killed (a closed terminal, the OOM killer), with whatever the tool
// computed or held, and every program a tool with exec had started.
func TestWorkerKeepsItsParentDeathSignal(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.Unsafe, tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		for _, sig := range []int{0, int(unix.SIGCHLD), int(unix.SIGTERM)} {
			_, err := call(t, p, "r7_pdeathsig", caps, r7Args{N: sig})
			wantDenied(t, fmt.Sprintf("parent-death signal %d, %s", sig, caps), err)
		}
		// The positive control: SIGKILL, which it has, as a program
		// that asks to die with its parent may.
		if got, err := call(t, p, "r7_pdeathsig", caps, r7Args{N: int(unix.SIGKILL)}); err != nil || got != "ok" {
			t.Errorf("parent-death signal SIGKILL, %s: %q, %v; want ok", caps, got, err)
		}
	}

	cmd, line := startPoolProgram(t, orphanArg)
	if strings.HasPrefix(line, "refused: ") {
		if !strings.Contains(line, "EPERM") {
			t.Errorf("the tool's call: %s; want EPERM", line)
		}
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "worker ")))
	if err != nil {
		t.Fatalf("the pool's program printed %q", line)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if b, ok := gone(pid); !ok {
		unix.Kill(pid, unix.SIGKILL)
		t.Fatalf("worker %d, whose tool set its parent-death signal to 0, lives on a minute after the agent was killed: %s", pid, b)
	}
}

// TestNoSecretMemoryWithoutExec: a tool without exec has no memory the
// limit (RLIMIT_DATA) does not count; memfd_create is denied for that,
// but memfd_secret (Linux 5.14) makes a memory file too, whose pages
// stay with the file when a window of it is unmapped (only what is
// mapped at once counts against RLIMIT_MEMLOCK), and which cannot be
// swapped. A tool with no capability held 1 GiB so under a 256 MiB
// limit, and kept it across calls.
func TestNoSecretMemoryWithoutExec(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := limitedPool(t, newDirs(t))
	limitHolds(t, p)
	for _, caps := range withoutExec {
		got, err := call(t, p, "r7_secretmem", caps, r7Args{N: 512})
		wantDenied(t, "memfd_secret without exec, "+caps.String(), err)
		if err == nil {
			t.Errorf("%s: 512 MiB of secret memory under a 256 MiB memory limit: %q", caps, got)
		}
	}
	// The positive control: a tool with exec, whose programs may share
	// memory the limit does not count, may make one (where the kernel
	// offers secret memory).
	got, err := call(t, p, "r7_secretmem", tool.Exec|tool.Unsafe, r7Args{N: 8})
	if err != nil && strings.Contains(err.Error(), "ENOSYS") {
		return
	}
	if err != nil || got != "8 MiB touched" {
		t.Errorf("memfd_secret with exec: %q, %v; want 8 MiB touched", got, err)
	}
}

// TestCompletionFloodIsThrottled: a worker passes on one progress
// report per interval, besides the first and the one that says the work
// is complete. Every report that said so went at once, through the
// worker's throttle and the pool's: a tool with no capability that
// reported completion in a loop, done growing, passed each of 100,000
// reports to the caller (an MCP client, which takes a report whose
// progress grows, or the agent's trace), as fast as it could write
// them.
func TestCompletionFloodIsThrottled(t *testing.T) {
	p := newPool(t, newDirs(t), nil)
	for _, raw := range []int{0, 1} {
		ctx, got := collect(context.Background())
		start := time.Now()
		if out, err := p.Call(ctx, "r7_progress_done", tool.Unsafe, []byte(fmt.Sprintf(`{"n":100000,"m":%d}`, raw))); err != nil || out != "complete" {
			t.Fatalf("r7_progress_done answered %q, %v", out, err)
		}
		// The first report, the first completion (here the same), and one
		// an interval: however long the loop took on this machine.
		most := int(time.Since(start)/progressEvery) + 2
		if n := len(got()); n < 1 || n > most {
			t.Errorf("raw frames %d: %d of 100,000 reports of completion were passed on, want the first and at most one an interval (%d for the call's time)", raw, n, most)
		}
	}
}

// epollAsUserArg runs the test binary as a program of a user other than
// root (epollUser, so that what the probe takes is no other program's):
// it starts a pool in the directory it is given, calls r7_epoll with the
// capabilities it is given, and prints what the tool answered and
// whether the program itself could then register a pipe with epoll, as
// JSON.
const epollAsUserArg = "-sandbox-test-epoll-as-user"

// epollUser is a user no other program runs as.
const epollUser = 54321

type epollReport struct {
	Answer, Err, Own string
}

func epollAsUser(dir, caps string) int {
	c, ok := tool.ParseCapabilities(caps)
	if !ok {
		fmt.Fprintln(os.Stderr, "capabilities", caps)
		return 1
	}
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer p.Close()
	var r epollReport
	r.Answer, err = p.Call(context.Background(), "r7_epoll", c, []byte(`{"n":100000000}`))
	if err != nil {
		r.Err = err.Error()
	}
	// What the agent's runtime does for each socket and pipe it polls.
	fds := make([]int, 2)
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err == nil {
		err = unix.Pipe2(fds, unix.O_CLOEXEC)
	}
	if err == nil {
		err = unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, fds[0], &unix.EpollEvent{Events: unix.EPOLLIN})
	}
	r.Own = fmt.Sprint(err)
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// TestEpollWatchesBounded: a worker holds no more of what the kernel
// counts per user than its share, so that the agent and the user's
// other programs keep theirs. The kernel counts epoll watches per user
// (fs.epoll.max_user_watches, 4% of the memory: 5.5 million on a 24 GiB
// machine, each a couple of hundred bytes of kernel memory), and a watch
// is a pair of a file and a descriptor number in an epoll instance,
// which stays while the file lives whatever the number then holds: a
// tool with no capability made 128 instances and 32 pipes and
// duplicated each pipe end onto 800 numbers in turn, took every watch of
// its user (about 1 GiB of kernel memory, under a 1 GiB data limit that
// counts none of it), and the agent's next epoll_ctl, which its runtime
// makes for every socket and pipe, failed with ENOSPC: no connection to
// the model. Without exec and network a worker makes no epoll instance
// and duplicates no descriptor, and so holds one watch per descriptor at
// most, in the Go runtime's instance.
func TestEpollWatchesBounded(t *testing.T) {
	needNamespaces(t)
	if os.Geteuid() != 0 {
		t.Skip("the test starts a program as another user, which takes root")
	}
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	exe, work := forUser(t, epollUser)
	// The positive control: the Go runtime still polls the pipes of a
	// tool without exec and network.
	d := newDirs(t)
	p := newPool(t, d, nil)
	if got, err := call(t, p, "r7_pipe", tool.Unsafe, r7Args{}); err != nil || got != "piped" {
		t.Errorf("a pipe with a deadline, without capabilities: %q, %v; want piped", got, err)
	}
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Env | tool.Unsafe} {
		var r epollReport
		runAsUser(t, exe, work, epollUser, &r, epollAsUserArg, work, caps.String())
		t.Logf("%s: %s%s", caps, r.Answer, r.Err)
		if r.Own != "<nil>" {
			t.Errorf("%s: after the tool's call (%s%s), the agent's own epoll_ctl failed: %s", caps, r.Answer, r.Err, r.Own)
		}
		var n int
		if _, err := fmt.Sscanf(r.Answer, "%d watches", &n); err == nil && n > 2*int(Limits{}.withDefaults().Files) {
			t.Errorf("%s: the worker took %s, more than two a descriptor", caps, r.Answer)
		}
	}
}

// TestNoAsyncIOContextsWithoutExec: a worker leaves the machine's
// limits to the rest of it. fs.aio-max-nr bounds the events of the
// asynchronous I/O contexts of every process of the machine together,
// whatever their user (65,536 by default): a tool with no capability
// took them all with io_setup and kept them, and every other program's
// io_setup failed with EAGAIN (databases, virtual machines) until its
// worker ended. Neither the Go runtime nor its standard library uses
// them; the programs of a tool with exec may.
func TestNoAsyncIOContextsWithoutExec(t *testing.T) {
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, caps := range withoutExec {
		got, err := call(t, p, "r7_aio", caps, r7Args{})
		wantDenied(t, "io_setup without exec, "+caps.String(), err)
		var ctx uintptr
		if _, _, e := unix.Syscall(unix.SYS_IO_SETUP, 1, uintptr(unsafe.Pointer(&ctx)), 0); e != 0 {
			t.Errorf("%s: the tool took %s, and the agent's own io_setup failed: %v", caps, got, e)
		} else {
			unix.Syscall(unix.SYS_IO_DESTROY, ctx, 0, 0)
		}
		p.Close() // the contexts go with the worker
		p = newPool(t, d, nil)
	}
}

// TestNoTerminalsOutsidePts: a tool with read_files reads files, not
// what the user types: a worker has a /dev/pts of its own, so that the
// user's terminals there cannot be read, but the terminals of /dev
// itself stayed readable to whoever owns them, the user logged in on a
// virtual console (/dev/ttyN, which tmux and screen read there) or root
// (every console, serial line and, in /dev/input, every keyboard): a
// tool with read_files read the password typed on /dev/tty5. A worker
// now reads no character device but those the Go runtime and the
// standard library use.
func TestNoTerminalsOutsidePts(t *testing.T) {
	needLandlock(t, 1)
	if os.Geteuid() != 0 {
		t.Skip("typing on a console takes root")
	}
	tty := "/dev/tty5"
	fd, err := unix.Open(tty, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no virtual console here: %v", err)
	}
	defer unix.Close(fd)
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.Exec | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		for _, c := range []byte("hunter2\n") {
			if err := unix.IoctlSetPointerInt(fd, unix.TIOCSTI, int(c)); err != nil {
				t.Skipf("TIOCSTI on %s: %v", tty, err)
			}
		}
		got, err := call(t, p, "r7_readdev", caps, r7Args{Path: tty})
		wantDenied(t, "reading "+tty+", "+caps.String(), err)
		if err == nil {
			t.Errorf("%s: what was typed on %s: %q", caps, tty, got)
		}
		unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)
	}
	// The positive control: the devices a Go program reads.
	for _, dev := range []string{"/dev/null", "/dev/urandom", "/dev/zero"} {
		if _, err := call(t, p, "r7_readdev", tool.ReadFiles|tool.Unsafe, r7Args{Path: dev}); err != nil {
			t.Errorf("reading %s with read_files: %v", dev, err)
		}
	}
	if got, err := call(t, p, "read", tool.ReadFiles|tool.Unsafe, probeArgs{Path: "/etc/hostname"}); err != nil && !strings.Contains(err.Error(), "ENOENT") {
		t.Errorf("reading /etc/hostname with read_files: %q, %v", got, err)
	}
}

// TestNoCoreDumps: nothing a tool does outlives its call or its limits,
// and a worker is not dumpable. A tool with no capability made its
// worker dumpable again (prctl(PR_SET_DUMPABLE)), raised its core limit
// to the hard one (unlimited) and crashed on a fault: where the
// machine's core_pattern is a pipe (systemd-coredump, apport), the
// kernel handed its memory to a root helper outside every limit of the
// worker's, 316 MB for 200 MiB touched, which stores it on disk after
// the call, at every call; where it is a file, with write_files, it
// wrote one in the workspace (and a program a tool with exec runs is
// dumpable anyway). The core limit of a worker is 1 for good, which the
// kernel takes as no dump at all, to a file or to a pipe.
func TestNoCoreDumps(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.Unsafe, tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r7_core", caps, r7Args{N: 1})
		var limit uint64
		if err != nil {
			t.Fatalf("r7_core, %s: %v", caps, err)
		}
		if _, err := fmt.Sscanf(got[strings.Index(got, "core limit "):], "core limit %d", &limit); err != nil || limit > 1 {
			t.Errorf("%s: %s; want a core limit of 1 at most", caps, got)
		}
	}
	// Where the kernel writes a core to the crashing process's directory,
	// the workspace: none there after a crash.
	pattern, err := os.ReadFile("/proc/sys/kernel/core_pattern")
	if err != nil || bytes.ContainsAny(pattern, "|/") {
		return
	}
	_, err = call(t, p, "r7_core", tool.WriteFiles|tool.Unsafe, r7Args{N: 1, M: 1})
	if err == nil {
		t.Fatal("r7_core did not crash its worker")
	}
	ents, _ := os.ReadDir(d.work)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "core") {
			t.Errorf("a crash of a worker dumped %s in the workspace (%v)", e.Name(), err)
		}
	}
}

// encryptedDir makes an ext4 file system with encryption on a loop
// device, mounted in a directory of the test's, with a directory
// encrypted under a key this process adds (a v2 policy, as the fscrypt
// tool makes for a user's home), and a file in it; it skips where any of
// that cannot be done.
func encryptedDir(t *testing.T) (dir, file string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a file system takes root")
	}
	root := t.TempDir()
	img, mnt := filepath.Join(root, "fs.img"), filepath.Join(root, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-O", "encrypt", img, "16M").CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4 -O encrypt: %v: %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("mounting an ext4 image: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	fd, err := unix.Open(mnt, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	// struct fscrypt_add_key_arg, then the raw key.
	arg := make([]byte, int(unsafe.Sizeof(unix.FscryptAddKeyArg{}))+64)
	add := (*unix.FscryptAddKeyArg)(unsafe.Pointer(&arg[0]))
	add.Key_spec.Type = unix.FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER
	add.Raw_size = 64
	for i := range 64 {
		arg[int(unsafe.Sizeof(*add))+i] = byte(i*31 + 7)
	}
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.FS_IOC_ADD_ENCRYPTION_KEY, uintptr(unsafe.Pointer(&arg[0]))); e != 0 {
		t.Skipf("FS_IOC_ADD_ENCRYPTION_KEY: %v", e)
	}
	dir = filepath.Join(mnt, "secret")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dfd)
	pol := unix.FscryptPolicyV2{Version: 2, Contents_encryption_mode: 1, Filenames_encryption_mode: 4, Flags: 2}
	copy(pol.Master_key_identifier[:], add.Key_spec.U[:16])
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(dfd), unix.FS_IOC_SET_ENCRYPTION_POLICY, uintptr(unsafe.Pointer(&pol))); e != 0 {
		t.Skipf("FS_IOC_SET_ENCRYPTION_POLICY: %v", e)
	}
	file = filepath.Join(dir, "diary")
	if err := os.WriteFile(file, []byte("dear diary"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// TestNoEncryptionKeysRemoved: nothing a tool does changes what the
// user's other programs can read. The user's claim to the key of an
// encrypted directory (fscrypt, v2 policies: an encrypted home) is the
// user's, and a worker runs as the user: a tool with read_files read
// the key's identifier from the directory's policy and removed the
// user's claim (FS_IOC_REMOVE_ENCRYPTION_KEY, on a descriptor opened for
// reading), which locked the directory for every program of the user
// until the passphrase is given again. No tool adds or removes such keys.
func TestNoEncryptionKeysRemoved(t *testing.T) {
	needNamespaces(t)
	dir, file := encryptedDir(t)
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.Unsafe, tool.ReadFiles | tool.Exec | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r7_fscrypt", caps, r7Args{Path: dir})
		wantDenied(t, "removing the key of "+dir+", "+caps.String(), err)
		if b, rerr := os.ReadFile(file); rerr != nil || string(b) != "dear diary" {
			t.Fatalf("%s: the tool answered %q, %v, and the user's file reads %q, %v", caps, got, err, b, rerr)
		}
	}
}

// TestNoSubvolumesPastLandlock: a tool writes nothing without
// write_files, and with it writes nowhere but its workspace and temp
// directory. Landlock sees the file system calls that make files and
// directories, not btrfs's ioctls that make subvolumes and snapshots,
// which the kernel checks against the mode bits only: a tool with
// read_files made a directory (an empty subvolume) where its user may
// write, and one with read_files and write_files made a subvolume in its
// workspace, wrote authorized_keys in it and snapshotted it into a
// directory outside as .ssh, a copy of what it wrote (on btrfs, as
// Fedora's and openSUSE's home directories are). No tool makes, deletes
// or changes a subvolume.
func TestNoSubvolumesPastLandlock(t *testing.T) {
	needLandlock(t, 1)
	if os.Geteuid() != 0 {
		t.Skip("mounting a file system takes root")
	}
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	root := t.TempDir()
	img, mnt := filepath.Join(root, "fs.img"), filepath.Join(root, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 256<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.btrfs", "-q", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.btrfs: %v: %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("mounting a btrfs image: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	work, home := filepath.Join(mnt, "work"), filepath.Join(mnt, "home")
	for _, d := range []string{work, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := newPool(t, dirs{work: work, temp: t.TempDir(), other: home}, nil)
	got, err := call(t, p, "r7_btrfs", tool.ReadFiles|tool.Unsafe, r7Args{Path: home})
	wantDenied(t, "a subvolume made without write_files", err)
	if _, serr := os.Stat(filepath.Join(home, "planted")); serr == nil {
		t.Errorf("a tool with read_files made %s: %q, %v", filepath.Join(home, "planted"), got, err)
	}
	got, err = call(t, p, "r7_btrfs", tool.ReadFiles|tool.WriteFiles|tool.Unsafe, r7Args{Path: home, M: 1})
	wantDenied(t, "a snapshot made outside the workspace", err)
	if b, rerr := os.ReadFile(filepath.Join(home, ".ssh", "authorized_keys")); rerr == nil {
		t.Errorf("a tool with read_files and write_files wrote %s outside its workspace: %q (%q, %v)", filepath.Join(home, ".ssh", "authorized_keys"), b, got, err)
	}
}

// TestTempDirsApartInTheWorkspace: a worker's TMPDIR is its own. Where
// the temp directory is the workspace or inside it (the container image
// runs the agent in /tmp, whose TMPDIR is /tmp), every worker's TMPDIR
// was in reach of a tool that writes the workspace: a tool with
// read_files and write_files found another tool's and wrote there, what
// a tool with exec writes to run (a script, go build's binaries) among
// it. The workers' temp directories are then in one of the pool's, which
// each worker covers with an empty file system but for its own.
func TestTempDirsApartInTheWorkspace(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) { c.TempDir = c.WorkDir; c.Spares = 0 })
	own, err := call(t, p, "r7_tmpdir#victim", tool.Exec|tool.WriteFiles|tool.Unsafe, r7Args{})
	if err != nil {
		t.Fatal(err)
	}
	victim := strings.Fields(own)[0]
	if err := os.WriteFile(filepath.Join(victim, "x"), []byte("own"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, caps := range []tool.Capability{tool.ReadFiles | tool.WriteFiles | tool.Unsafe, tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r7_tamper#"+caps.String(), caps, r7Args{})
		if after, _ := call(t, p, "r7_tmpdir#victim", tool.Exec|tool.WriteFiles|tool.Unsafe, r7Args{}); after != victim+" own" {
			t.Errorf("a tool with %s wrote in another's TMPDIR (%q, %v): it holds %q", caps, got, err, after)
		}
	}
	// The positive control: a tool still writes and reads its own.
	if got, err := call(t, p, "tmpcreate", tool.WriteFiles|tool.Unsafe, probeArgs{Path: "mine", N: 5}); err != nil || got != "ok" {
		t.Errorf("a file in the tool's own TMPDIR: %q, %v", got, err)
	}
	if got, err := call(t, p, "r7_tmpdir#victim", tool.Exec|tool.WriteFiles|tool.Unsafe, r7Args{}); err != nil || got != victim+" own" {
		t.Errorf("the victim's TMPDIR: %q, %v", got, err)
	}
}
