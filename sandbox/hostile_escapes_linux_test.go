//go:build linux

package sandbox

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// Each test of this file fails on the code before its fix. The probes
// are the hx_ tools of hostile_probe_linux_test.go.

// TestNoDatagramsWithoutNetwork: a tool without tool.Network may make
// no socket that reaches outside its worker. socketpair(2) is allowed
// ("it reaches nothing outside the process"), but a unix datagram socket
// made by it can sendto(2) any pathname datagram socket of the machine
// (syslog's /dev/log, journald, sd_notify, a program's own), and, once
// disconnected with connect(AF_UNSPEC), be bound to an abstract name in
// the host's network namespace and receive what other processes send
// there.
func TestNoDatagramsWithoutNetwork(t *testing.T) {
	t.Parallel()
	needLandlock(t, 6)
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	p := newPool(t, d, nil)

	sock := filepath.Join(d.other, "dgram")
	pc, err := net.ListenPacket("unixgram", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	_, err = call(t, p, "hx_dgram", tool.Unsafe, hostileArgs{Path: sock})
	wantDenied(t, "a datagram to a pathname unix socket, without network", err)
	pc.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	buf := make([]byte, 64)
	if n, _, err := pc.ReadFrom(buf); err == nil {
		t.Errorf("a worker without network sent %q to a unix socket outside it", buf[:n])
	}

	// A listener of its own in the host's abstract namespace.
	name := fmt.Sprintf("@toolreg-test-squat-%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"))
	if _, err := call(t, p, "hx_dgram_listen", tool.Unsafe, hostileArgs{Name: name, N: 2}); err == nil {
		if c, derr := net.Dial("unixgram", name); derr == nil {
			c.Write([]byte("from outside"))
			c.Close()
		}
		got, err := call(t, p, "hx_dgram_listen", tool.Unsafe, hostileArgs{Name: name, N: 1})
		t.Errorf("a worker without network bound the abstract name %s in the host's network namespace; reading it: %q, %v", name, got, err)
	}

	// Nor with network, which reaches the internet families alone (see
	// TestNetworkIsTheInternetFamilies).
	_, err = call(t, p, "hx_dgram", tool.Network|tool.Unsafe, hostileArgs{Path: sock})
	wantDenied(t, "a datagram to a pathname unix socket, with network", err)
	// The positive control: outside a worker, the datagram goes.
	raw, _ := json.Marshal(hostileArgs{Path: sock})
	if got, err, _ := hostileProbe(t.Context(), "hx_dgram", raw); err != nil || got != "sent" {
		t.Errorf("a datagram outside a worker: %q, %v; want sent", got, err)
	}
	pc.SetReadDeadline(time.Now().Add(time.Minute))
	if n, _, err := pc.ReadFrom(buf); err != nil || string(buf[:n]) != "from the worker" {
		t.Errorf("the datagram sent outside a worker: %q, %v", buf[:n], err)
	}
}

// posixACL encodes an access ACL of the three base entries (user, group,
// other) in the kernel's xattr format.
func posixACL(user, group, other uint16) string {
	b := []byte{2, 0, 0, 0}
	for _, e := range []struct{ tag, perm uint16 }{{0x01, user}, {0x04, group}, {0x20, other}} {
		b = append(b, byte(e.tag), byte(e.tag>>8), byte(e.perm), byte(e.perm>>8), 0xff, 0xff, 0xff, 0xff)
	}
	return "hex:" + hex.EncodeToString(b)
}

// TestNoXattrsWithoutWriteFiles: without tool.WriteFiles "nothing is
// written" and there is no chmod. Landlock does not cover extended
// attributes and the filter denies only the chmod and chown calls:
// setxattr(2) writes user.* attributes of any file the user owns, and a
// POSIX ACL (system.posix_acl_access) is a chmod: a worker of root makes
// a root-owned file writable by every user.
func TestNoXattrsWithoutWriteFiles(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	f := filepath.Join(d.other, "private")
	if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := unix.Setxattr(f, "user.probe", []byte("1"), 0); err != nil {
		t.Skipf("this file system takes no user xattrs: %v", err)
	}
	if err := unix.Removexattr(f, "user.probe"); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.Unsafe, tool.ReadFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe} {
		_, err := call(t, p, "hx_setxattr", caps, hostileArgs{Path: f, Name: "user.planted", Value: "yes"})
		wantDenied(t, "setxattr user.* without write_files, "+caps.String(), err)
		_, err = call(t, p, "hx_setxattr", caps, hostileArgs{Path: f, Name: "system.posix_acl_access", Value: posixACL(6, 4, 6)})
		wantDenied(t, "a POSIX ACL without write_files, "+caps.String(), err)
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("mode of %s after a worker with %s: %v, %v; want 0600 (an ACL changed it)", f, caps, fi.Mode(), err)
			os.Chmod(f, 0o600)
			unix.Removexattr(f, "system.posix_acl_access")
		}
	}
	// file_setattr(2) (Linux 6.17), the path-based FS_IOC_FSSETXATTR:
	// the nodump and noatime flags of the same file.
	_, err := call(t, p, "hx_file_setattr", tool.Unsafe, hostileArgs{Path: f, N: 0x80 | 0x40})
	if err == nil || !strings.Contains(err.Error(), "ENOSYS") {
		wantDenied(t, "file_setattr without write_files", err)
	}
	// The positive control: with write_files, in the workspace.
	w := filepath.Join(d.work, "mine")
	if err := os.WriteFile(w, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := call(t, p, "hx_setxattr", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: w, Name: "user.ok", Value: "1"}); err != nil || got != "set" {
		t.Errorf("setxattr with write_files in the workspace: %q, %v; want set", got, err)
	}
}

// TestSharedMemoryLimited: the memory limit bounds a worker
// (RLIMIT_DATA), but it counts private writable mappings only: shared
// anonymous mappings and System V shared memory (in the worker's own IPC
// namespace, whose shmall is the kernel's default, unlimited) are not
// counted, so any tool can take the machine's memory, and the OOM killer
// may pick the agent.
func TestSharedMemoryLimited(t *testing.T) {
	if raceEnabled {
		t.Skip("no data limit in race-detector builds")
	}
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) { c.Limits.Memory = 64 << 20 })
	// The control: the same over the limit in private memory fails.
	if _, err := call(t, p, "alloc", tool.Unsafe, probeArgs{N: 256}); err == nil {
		t.Fatal("256 MiB of private memory under a 64 MiB limit: no error")
	}
	for _, id := range []string{"hx_shared", "hx_sysvshm"} {
		if got, err := call(t, p, id, tool.Unsafe, hostileArgs{N: 256}); err == nil {
			t.Errorf("%s: 256 MiB under a 64 MiB memory limit: %q", id, got)
		}
	}
	// Kernel memory in the worker's IPC namespace (a probe had 255
	// MiB of semaphore sets and 256 MiB of message queues under a 64 MiB
	// limit): none without exec; the control, with exec. The default
	// limit: under 64 MiB a loaded machine's runtime threads (8 MiB of
	// stack each with cgo) may take a worker's whole data limit.
	p = newPool(t, d, nil)
	for _, kind := range []string{"sem", "msg"} {
		_, err := call(t, p, "hx_sysvipc", tool.Unsafe, hostileArgs{Name: kind})
		wantDenied(t, "a System V "+kind+" without exec", err)
		if got, err := call(t, p, "hx_sysvipc", tool.Exec|tool.Unsafe, hostileArgs{Name: kind}); err != nil || got != "made" {
			t.Errorf("a System V %s with exec: %q, %v; want made", kind, got, err)
		}
	}
}

// TestNoInotifyWithoutReadFiles: without tool.ReadFiles a directory
// outside the runtime's paths cannot be listed (Landlock's read_dir), but
// inotify_add_watch(2) is outside Landlock's reach: the tool learns the
// name of every file created, opened or changed there, and when.
func TestNoInotifyWithoutReadFiles(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	p := newPool(t, d, nil)
	// The control: listing the directory is denied.
	_, err := call(t, p, "read", tool.Unsafe, probeArgs{Path: d.other})
	wantDenied(t, "opening a directory without read_files", err)
	_, err = call(t, p, "hx_inotify", tool.Unsafe, hostileArgs{Path: d.other})
	if err == nil {
		os.WriteFile(filepath.Join(d.other, "id_ed25519"), nil, 0o600)
		got, _ := call(t, p, "hx_inotify", tool.Unsafe, hostileArgs{N: 1})
		t.Errorf("a worker without read_files watched %s and saw the names %q", d.other, got)
	}
}

// TestNoSetgidProgram: a tool with write_files makes no set-group-ID file
// ("as root, such a program in the workspace would run as root for
// whoever reaches it"). The filter denies the bit to chmod and mknod, not
// to open(O_CREAT): a file created with mode 02745 keeps its bit through
// writes (the kernel clears set-group-ID on write only with group
// execute), and a POSIX ACL that adds group execute keeps it for a member
// of the file's group, which the worker is. The result is a copy of a
// program, set-group-ID root, that gives its effective group to any user
// who runs it. (TestAttackSetuidInWorkspace's "created with the bit"
// holds only because its probe writes after creating, and a write clears
// set-user-ID: created with 04755 and left empty, the file keeps it.)
func TestNoSetgidProgram(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	p := newPool(t, d, nil)
	// Created with the bit and left as it is: no write clears it.
	for _, mode := range []int{0o4755, 0o2755, 0o2745, 0o6755} {
		f := filepath.Join(d.work, fmt.Sprintf("created-%o", mode))
		got, err := call(t, p, "hx_createmode", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: f, N: mode})
		wantDenied(t, fmt.Sprintf("a file created with mode %#o", mode), err)
		if _, serr := os.Stat(f); serr == nil {
			t.Errorf("a file created with mode %#o exists: %q", mode, got)
		}
	}
	// The control: an ordinary program.
	if got, err := call(t, p, "hx_createmode", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, "plain"), N: 0o755}); err != nil || got != "mode 0755" {
		t.Errorf("a file created with mode 0755: %q, %v; want mode 0755", got, err)
	}
	path := filepath.Join(d.work, "sg")
	got, err := call(t, p, "hx_sgid", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: path})
	t.Logf("a set-group-ID program: %q, %v", got, err)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode()&(os.ModeSetgid|os.ModeSetuid) == 0 {
		return
	}
	t.Errorf("the workspace holds %s, mode %v, made by a tool with write_files", path, fi.Mode())
	if os.Geteuid() != 0 {
		return
	}
	// Run it as nobody: it gets the group of the agent's user (root).
	for dir := filepath.Dir(path); dir != "/"; dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o005 != 0o005 {
			os.Chmod(dir, fi.Mode().Perm()|0o005)
		}
	}
	cmd := exec.Command(path, printGIDsArg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	t.Logf("run as nobody: %s%v", out, err)
}

// TestLargeAnswersNotKept: an answer may be as large as a frame (64 MiB),
// and the model gets 64 KiB of it; the pool reads it into a buffer of the
// worker's that it keeps for the worker's life (an idle minute after its
// last call), in the agent, outside every limit of the worker: with
// -workers 16, one tool with 16 calls in flight makes the agent hold
// 1 GiB.
func TestLargeAnswersNotKept(t *testing.T) {
	t.Parallel()
	returnMemoryAfter(t)
	d := newDirs(t)
	p := newPool(t, d, nil)
	// 2 MiB, past the 1 MiB kept (keptBuffer): the review's 48 MiB took
	// the test 2 s of processor for the same check.
	if _, err := call(t, p, "hx_biganswer", tool.Unsafe, hostileArgs{N: 2}); err != nil {
		t.Fatal(err)
	}
	for _, w := range idleOf(p, "hx_biganswer", tool.Unsafe) {
		if c := cap(w.rbuf); c > keptBuffer {
			t.Errorf("the pool keeps a buffer of %d MiB for an idle worker after a large answer", c>>20)
		}
	}
	// The control: a small answer's buffer is kept for the next call.
	if _, err := call(t, p, "hx_biganswer", tool.Unsafe, hostileArgs{}); err != nil {
		t.Fatal(err)
	}
	for _, w := range idleOf(p, "hx_biganswer", tool.Unsafe) {
		if c := cap(w.rbuf); c == 0 || c > keptBuffer {
			t.Errorf("after a small answer the worker's buffer holds %d bytes; want some, at most %d", c, keptBuffer)
		}
	}
}

// TestNestedVersionControlReadOnly: the workspace's .git stays read-only
// so that no hook planted there runs, unconfined, at the user's next
// commit. Only <workspace>/.git is covered: the git directory that a
// .git file names (a worktree or bare-repository layout, "gitdir:
// .bare"), and the repositories in the workspace's subdirectories, take
// hooks.
func TestNestedVersionControlReadOnly(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	for _, dir := range []string{".bare/hooks", "vendor/lib/.git/hooks"} {
		if err := os.MkdirAll(filepath.Join(d.work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d.work, ".git"), []byte("gitdir: .bare\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, nil)
	hook := "#!/bin/sh\necho planted\n"
	for _, c := range []struct{ what, path string }{
		{"the git directory a .git file names", ".bare/hooks/pre-commit"},
		{"a repository in a subdirectory", "vendor/lib/.git/hooks/pre-commit"},
	} {
		_, err := call(t, p, "hx_write", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, c.path), Value: hook})
		wantErrno(t, "a hook in "+c.what, err, "EROFS")
	}
	// The control: the workspace itself is writable.
	if got, err := call(t, p, "hx_write", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, "src/main.go"), Value: "package main\n"}); err != nil || got != "written" {
		t.Errorf("a file in the workspace: %q, %v; want written", got, err)
	}
}

// TestNestedVersionControlStaysPut: a probe moved a protected
// nested git directory aside with its parent (the read-only mount moved
// with it, in the worker) and wrote a hook where git looks: the
// directories between the workspace and a nested one cannot be renamed.
// And a .git that is a symbolic link to its git directory (Google's repo
// tool) is protected as the directory it names.
func TestNestedVersionControlStaysPut(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	for _, dir := range []string{".modules/sub/hooks", "sub", "vendor/lib/.git/hooks", ".repo/projects/lib2.git/hooks", "vendor/lib2"} {
		if err := os.MkdirAll(filepath.Join(d.work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d.work, "sub/.git"), []byte("gitdir: ../.modules/sub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../.repo/projects/lib2.git", filepath.Join(d.work, "vendor/lib2/.git")); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, nil)
	hook := "#!/bin/sh\necho planted\n"
	for _, c := range []struct{ parent, aside, hook string }{
		{".modules", ".modules.orig", ".modules/sub/hooks/pre-commit"},
		{"vendor/lib", "vendor/lib.orig", "vendor/lib/.git/hooks/pre-commit"},
		{"vendor", "vendor.orig", "vendor/lib/.git/hooks/pre-commit"},
	} {
		_, err := call(t, p, "hx_rename", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, c.parent), Value: filepath.Join(d.work, c.aside)})
		wantErrno(t, "renaming "+c.parent, err, "EBUSY")
		_, err = call(t, p, "hx_write", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, c.hook), Value: hook})
		wantErrno(t, "then a hook in "+c.hook, err, "EROFS")
	}
	_, err := call(t, p, "hx_write", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, "vendor/lib2/.git/hooks/pre-commit"), Value: hook})
	wantErrno(t, "a hook through a .git that is a symbolic link", err, "EROFS")
	// The controls: the repositories' files stay writable, and so does a
	// directory that holds none.
	for _, f := range []string{"vendor/lib/main.go", "sub/main.go", "other/main.go"} {
		if got, err := call(t, p, "hx_write", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, f), Value: "package main\n"}); err != nil || got != "written" {
			t.Errorf("%s: %q, %v; want written", f, got, err)
		}
	}
	if got, err := call(t, p, "hx_rename", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, "other"), Value: filepath.Join(d.work, "other2")}); err != nil || got != "renamed" {
		t.Errorf("renaming a directory that holds no repository: %q, %v; want renamed", got, err)
	}
}

// TestNestedSearchStoppedShort: earlier tools can fill the search's
// bounds (64 decoy repositories that sort first) so that a real one
// past them stays writable: a tool that writes is told so, in its
// enforcement, and refused when the sandbox is required. One fewer
// repository, and nothing is missing.
func TestNestedSearchStoppedShort(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	for _, c := range []struct {
		repos   int
		missing bool
	}{{nestedMax - 1, false}, {nestedMax, true}} {
		d := newDirs(t)
		for i := range c.repos {
			if err := os.MkdirAll(filepath.Join(d.work, fmt.Sprintf("a%03d/.git", i)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		p := newPool(t, d, nil)
		enf, err := p.Enforcement(context.Background(), "x", tool.WriteFiles)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(strings.Join(enf.Missing, "\n"), "past the search's bounds")
		if got != c.missing {
			t.Errorf("%d repositories: missing %q; want the search's bounds named: %v", c.repos, enf.Missing, c.missing)
		}
		if enf, err := p.Enforcement(context.Background(), "x", tool.ReadFiles); err != nil || strings.Contains(strings.Join(enf.Missing, "\n"), "search") {
			t.Errorf("%d repositories, a tool that does not write: %q, %v; want nothing about the search", c.repos, enf.Missing, err)
		}
		if c.missing {
			p := newPool(t, d, func(c *Config) { c.Require = true })
			_, err := p.Enforcement(context.Background(), "x", tool.WriteFiles)
			wantKind(t, "past the search's bounds, required", err, registry.KindRefused, "search's bounds")
		}
	}
}

// TestNestedInsideTheTopRepository: a submodule's git directory in the
// top's .git (.git/modules/sub): the directories between it and the
// workspace are inside the read-only .git, and a writable mount made
// there for them left .git/modules writable (a probe: a planted
// .git/modules/other, which git submodule update --init reuses).
func TestNestedInsideTheTopRepository(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	for _, dir := range []string{".git/hooks", ".git/modules/sub/hooks", "sub"} {
		if err := os.MkdirAll(filepath.Join(d.work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d.work, "sub/.git"), []byte("gitdir: ../.git/modules/sub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, nil)
	for _, f := range []string{".git/hooks/pre-commit", ".git/modules/sub/hooks/pre-commit", ".git/modules/other/hooks/post-checkout", ".git/modules/other/config", ".git/modules/planted"} {
		_, err := call(t, p, "hx_write", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, f), Value: "#!/bin/sh\necho planted\n"})
		wantErrno(t, "a write to "+f, err, "EROFS")
	}
}

// TestNestedGitLinkNamed: a .git that is a symbolic link cannot be
// mounted over, and a tool that writes can rename it and put a git
// directory of its own in its place: the search says so, and a tool
// that writes has it among its missing restrictions.
func TestNestedGitLinkNamed(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	for _, dir := range []string{".repo/projects/lib2.git/hooks", "vendor/lib2"} {
		if err := os.MkdirAll(filepath.Join(d.work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../../.repo/projects/lib2.git", filepath.Join(d.work, "vendor/lib2/.git")); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, nil)
	enf, err := p.Enforcement(context.Background(), "x", tool.WriteFiles)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(enf.Missing, "\n"), "symbolic link") {
		t.Errorf("a .git that is a symbolic link: missing %q; want it named", enf.Missing)
	}
	p = newPool(t, d, func(c *Config) { c.Require = true })
	_, err = p.Enforcement(context.Background(), "x", tool.WriteFiles)
	wantKind(t, "a .git link, required", err, registry.KindRefused, "symbolic link")
}

// TestNestedRemovedAfterTheSearch: a nested repository the user removes
// after the pool's search (rm -rf, a branch switch) does not make every
// later worker refuse the tools that write.
func TestNestedRemovedAfterTheSearch(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	if err := os.MkdirAll(filepath.Join(d.work, "vendor/lib/.git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, func(c *Config) { c.Spares = 0 })
	if err := os.RemoveAll(filepath.Join(d.work, "vendor")); err != nil {
		t.Fatal(err)
	}
	for i, caps := range []tool.Capability{tool.WriteFiles | tool.Unsafe, tool.WriteFiles | tool.ReadFiles | tool.Unsafe} {
		if got, err := call(t, p, "hx_write", caps, hostileArgs{Path: filepath.Join(d.work, "other/main.go"), Value: "package main\n"}); err != nil || got != "written" {
			t.Errorf("call %d: a write after the nested repository went: %q, %v; want written", i, got, err)
		}
	}
}

// TestNestedHonestRenames: renames within a directory go as they did
// beside the mount points that keep a nested repository in place; a
// rename across one of them gets EXDEV, as docs/security.md says.
func TestNestedHonestRenames(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	d := newDirs(t)
	for _, dir := range []string{"vendor/lib/.git/hooks", "vendor/lib/pkg", "vendor/other"} {
		if err := os.MkdirAll(filepath.Join(d.work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := newPool(t, d, nil)
	write := func(f string) {
		t.Helper()
		if got, err := call(t, p, "hx_write", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, f), Value: "x\n"}); err != nil || got != "written" {
			t.Errorf("write %s: %q, %v; want written", f, got, err)
		}
	}
	rename := func(from, to string) (string, error) {
		return call(t, p, "hx_rename", tool.WriteFiles|tool.Unsafe, hostileArgs{Path: filepath.Join(d.work, from), Value: filepath.Join(d.work, to)})
	}
	write("vendor/lib/a.tmp")
	write("vendor/lib/pkg/b.tmp")
	write("vendor/x.tmp")
	write("top.tmp")
	for _, c := range [][2]string{
		{"vendor/lib/a.tmp", "vendor/lib/a.go"},
		{"vendor/lib/pkg/b.tmp", "vendor/lib/pkg/b.go"},
		{"vendor/x.tmp", "vendor/x.go"},
		{"vendor/other", "vendor/other2"},
		{"vendor/lib/pkg", "vendor/lib/pkg2"},
	} {
		if got, err := rename(c[0], c[1]); err != nil || got != "renamed" {
			t.Errorf("rename %s to %s: %q, %v; want renamed", c[0], c[1], got, err)
		}
	}
	for _, c := range [][2]string{{"top.tmp", "vendor/lib/top.go"}, {"vendor/lib/a.go", "vendor/a.go"}} {
		_, err := rename(c[0], c[1])
		wantErrno(t, "rename "+c[0]+" to "+c[1], err, "EXDEV")
	}
}
