//go:build linux

package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"

	"github.com/toolreg/toolreg/registry"
)

// dirs are a test's workspace, temp directory and a third directory
// outside both.
type dirs struct{ work, temp, other string }

func newDirs(t *testing.T) dirs {
	t.Helper()
	root := t.TempDir()
	d := dirs{filepath.Join(root, "work"), filepath.Join(root, "tmp"), filepath.Join(root, "other")}
	for _, p := range []string{d.work, d.temp, d.other} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// newPool returns a pool for d that starts a spare worker as it is
// made, as agent mcp does, so that the test's first probe runs in a
// worker started ahead for no tool and then given its tool, and the
// probes of other tools after it in workers started for them, as those
// of agent call and a busy tool's second worker are. The spare given a
// tool is not replaced: the test's last replacement was never used, 165
// of a short run's 816 worker starts. An edit that sets Spares keeps
// them replaced, as agent mcp does (keepSpare for one).
func newPool(t *testing.T, d dirs, edit func(*Config)) *Pool {
	t.Helper()
	const unset = -1
	c := Config{Arg: workerArg, WorkDir: d.work, TempDir: d.temp, Environ: []string{}, Spares: unset}
	if edit != nil {
		edit(&c)
	}
	oneSpare := c.Spares == unset
	if oneSpare {
		c.Spares = 1
	}
	p, err := NewPool(c)
	if err != nil {
		t.Fatal(err)
	}
	if oneSpare {
		p.SetSpares(0) // the spare under way stays for the first call
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// keepSpare has newPool's pool replace each spare given a tool, as agent
// mcp does, for the tests of spares.
func keepSpare(c *Config) { c.Spares = 1 }

// needLandlock skips a test on a kernel without the Landlock ABI it
// needs.
func needLandlock(t *testing.T, abi int) {
	t.Helper()
	if got := landlockABI(); got < abi {
		t.Skipf("this kernel offers Landlock ABI %d; the test needs %d", got, abi)
	}
}

// call calls the probe id with caps and the arguments a, as JSON.
func call[A any](t *testing.T, p *Pool, id string, caps tool.Capability, a A) (string, error) {
	t.Helper()
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return p.Call(context.Background(), id, caps, raw)
}

// wantDenied checks that err is a tool error reporting EACCES or EPERM.
func wantDenied(t *testing.T, what string, err error) {
	t.Helper()
	var e *registry.Error
	if !errors.As(err, &e) || e.Kind != registry.KindTool || !(strings.Contains(e.Err.Error(), "EACCES") || strings.Contains(e.Err.Error(), "EPERM")) {
		t.Errorf("%s: got %v, want a tool error with EACCES or EPERM", what, err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestWriteFiles(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, dir := range []string{d.work, d.temp, d.other} {
		path := filepath.Join(dir, "new")
		_, err := call(t, p, "create", tool.Unsafe, probeArgs{Path: path})
		wantDenied(t, "create without write_files in "+dir, err)
		if exists(path) {
			t.Errorf("%s was created without write_files", path)
		}
	}
	victim := filepath.Join(d.work, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := call(t, p, "unlink", tool.Unsafe, probeArgs{Path: victim})
	wantDenied(t, "unlink without write_files", err)
	if !exists(victim) {
		t.Error("the file was removed without write_files")
	}

	// With write_files: the workspace and the worker's own temp
	// directory, nothing else: not the shared temp directory it is in.
	caps := tool.WriteFiles | tool.Unsafe
	path := filepath.Join(d.work, "new")
	if got, err := call(t, p, "create", caps, probeArgs{Path: path}); err != nil || got != "ok" {
		t.Errorf("create with write_files in the workspace: %q, %v; want ok", got, err)
	}
	if !exists(path) {
		t.Errorf("%s was not created", path)
	}
	shared := filepath.Join(d.temp, "new")
	_, err = call(t, p, "create", caps, probeArgs{Path: shared})
	wantDenied(t, "create with write_files in the shared temp directory", err)
	if exists(shared) {
		t.Errorf("%s was created in the shared temp directory", shared)
	}
	outside := filepath.Join(d.other, "new")
	_, err = call(t, p, "create", caps, probeArgs{Path: outside})
	wantDenied(t, "create with write_files outside the workspace", err)
	if exists(outside) {
		t.Errorf("%s was created outside the workspace", outside)
	}
	if got, err := call(t, p, "unlink", caps, probeArgs{Path: victim}); err != nil || got != "ok" {
		t.Errorf("unlink with write_files: %q, %v; want ok", got, err)
	}
	if exists(victim) {
		t.Error("the file is still there after unlink with write_files")
	}
}

func TestReadFiles(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	p := newPool(t, d, nil)
	secret := filepath.Join(d.other, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{secret, "/etc/passwd"} {
		got, err := call(t, p, "read", tool.Unsafe, probeArgs{Path: path})
		wantDenied(t, "read of "+path+" without read_files", err)
		if got != "" {
			t.Errorf("read of %s without read_files answered %q", path, got)
		}
	}
	// What the runtime needs stays readable.
	if _, err := os.Stat("/etc/hosts"); err == nil {
		if _, err := call(t, p, "read", tool.Unsafe, probeArgs{Path: "/etc/hosts"}); err != nil {
			t.Errorf("read of /etc/hosts (in RuntimeReadPaths): %v", err)
		}
	}
	got, err := call(t, p, "read", tool.ReadFiles|tool.Unsafe, probeArgs{Path: secret})
	if err != nil || got != "s3cret" {
		t.Errorf("read with read_files: %q, %v; want s3cret", got, err)
	}
}

func TestExec(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	prog := "/bin/true"
	if _, err := os.Stat(prog); err != nil {
		t.Skipf("no %s: %v", prog, err)
	}
	p := newPool(t, newDirs(t), nil)
	_, err := call(t, p, "execve", tool.Unsafe, probeArgs{Path: prog})
	wantDenied(t, "execve without exec", err)
	// Nothing happened: the worker is still itself and serves the next call.
	if got, err := call(t, p, "echo", tool.Unsafe, probeArgs{}); err != nil || got != "{}" {
		t.Errorf("the call after a denied execve: %q, %v; want {}", got, err)
	}
	_, err = call(t, p, "forkexec", tool.Unsafe, probeArgs{Path: prog})
	wantDenied(t, "fork and exec without exec", err)

	got, err := call(t, p, "forkexec", tool.Exec|tool.Unsafe, probeArgs{Path: prog})
	if err != nil || got != "exit 0" {
		t.Errorf("fork and exec with exec: %q, %v; want exit 0", got, err)
	}
}

// acceptedBefore connects to ln itself and reports how many connections
// were accepted before its own: a connect completes in the kernel before
// accept, so a connection the probe made would come first.
func acceptedBefore(t *testing.T, ln net.Listener) int {
	t.Helper()
	c, err := net.Dial(ln.Addr().Network(), ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n := 0
	for {
		a, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		mine := a.RemoteAddr().String() == c.LocalAddr().String()
		a.Close()
		if mine {
			return n
		}
		n++
	}
}

func TestNetwork(t *testing.T) {
	needLandlock(t, 4)
	d := newDirs(t)
	p := newPool(t, d, nil)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port

	_, err = call(t, p, "tcp", tool.Unsafe, probeArgs{Port: port})
	wantDenied(t, "TCP connect without network", err)
	if n := acceptedBefore(t, ln); n != 0 {
		t.Errorf("the listener accepted %d connections from a worker without network", n)
	}

	// UDP and unix sockets: the seccomp filter denies creating them.
	t.Run("udp and unix", func(t *testing.T) {
		if !Check(tool.Unsafe).Seccomp {
			t.Skip("no seccomp here: UDP and unix sockets are not restricted")
		}
		udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer udp.Close()
		_, err = call(t, p, "udp", tool.Unsafe, probeArgs{Port: udp.LocalAddr().(*net.UDPAddr).Port})
		wantDenied(t, "UDP send without network", err)
		// A loopback datagram is queued before sendto returns: none may be.
		if n := pendingDatagrams(t, udp); n != 0 {
			t.Errorf("%d datagrams arrived from a worker without network", n)
		}

		sock := filepath.Join(d.other, "s")
		ul, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer ul.Close()
		_, err = call(t, p, "unix", tool.Unsafe, probeArgs{Path: sock})
		wantDenied(t, "unix socket connect without network", err)
	})

	got, err := call(t, p, "tcp", tool.Network|tool.Unsafe, probeArgs{Port: port})
	if err != nil || got != "ok" {
		t.Errorf("TCP connect with network: %q, %v; want ok", got, err)
	}
	if n := acceptedBefore(t, ln); n != 1 {
		t.Errorf("the listener accepted %d connections from a worker with network, want 1", n)
	}
}

func TestEnvironment(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	environ := []string{"LLM_API_KEY=sk-secret", "SEARXNG_URL=http://127.0.0.1:1", "HOME=/root", "PATH=/usr/bin", "TZ=UTC", "TMPDIR=/elsewhere"}
	p := newPool(t, d, func(c *Config) {
		c.Environ = environ
		c.Env = []string{"SEARXNG_URL", "LLM_API_KEY"}
	})
	for _, tc := range []struct {
		caps tool.Capability
		want []string
	}{
		{tool.Unsafe, []string{"GOMAXPROCS=1", "TMPDIR=private", "TZ=UTC"}},
		{tool.Env | tool.Unsafe, []string{"GOMAXPROCS=1", "SEARXNG_URL=http://127.0.0.1:1", "TMPDIR=private", "TZ=UTC"}},
		{tool.Exec | tool.Unsafe, []string{"GOMAXPROCS=1", "HOME=/root", "PATH=/usr/bin", "TMPDIR=private", "TZ=UTC"}},
	} {
		got, err := call(t, p, "env", tc.caps, probeArgs{})
		if err != nil {
			t.Fatalf("env with %s: %v", tc.caps, err)
		}
		vars := strings.Split(got, "\n")
		for i, v := range vars {
			// Each worker's TMPDIR is a directory of its own in the pool's.
			if dir, ok := strings.CutPrefix(v, "TMPDIR="); ok && filepath.Dir(filepath.Dir(dir)) == d.temp && strings.HasPrefix(filepath.Base(filepath.Dir(dir)), tempPrefix) && strings.HasPrefix(filepath.Base(dir), "toolreg-worker-") {
				vars[i] = "TMPDIR=private"
			}
		}
		slices.Sort(vars)
		if diff := cmp.Diff(tc.want, vars); diff != "" {
			t.Errorf("environment with %s (-want +got):\n%s", tc.caps, diff)
		}
	}
}

func TestEnforcementReported(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	p := newPool(t, newDirs(t), nil)
	got, err := p.Enforcement(context.Background(), "echo", tool.Unsafe)
	if err != nil {
		t.Fatal(err)
	}
	want := Check(tool.Unsafe)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("worker's enforcement against Check (-want +got):\n%s", diff)
	}
	if got.LandlockABI == 0 || !got.NoNewPrivs {
		t.Errorf("enforcement %+v: want Landlock and no_new_privs", got)
	}
}

// pendingDatagrams counts the datagrams queued on c, without waiting.
func pendingDatagrams(t *testing.T, c net.PacketConn) int {
	t.Helper()
	sc, err := c.(*net.UDPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = sc.Read(func(fd uintptr) bool {
		buf := make([]byte, 64)
		for {
			_, _, err := syscall.Recvfrom(int(fd), buf, syscall.MSG_DONTWAIT)
			if err != nil {
				return true
			}
			n++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
