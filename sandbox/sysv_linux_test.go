//go:build linux

package sandbox

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNoSysVObjectsOfOthers: a tool without exec makes no System V
// object, so any it reaches is another program's, whose mode the kernel
// checks against the user alone and which Landlock does not see. In the
// worker's IPC namespace there is none; without namespaces, a tool with
// no capability attached another program's shared memory segment and
// read it ("secret of mine"), took a message off its queue and set its
// semaphore, by their ids.
func TestNoSysVObjectsOfOthers(t *testing.T) {
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	shm, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	if err != nil {
		t.Skipf("no System V shared memory here: %v", err)
	}
	defer func() { _, _ = unix.SysvShmCtl(shm, unix.IPC_RMID, nil) }()
	b, err := unix.SysvShmAttach(shm, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.SysvShmDetach(b) }()
	copy(b, "secret of mine")
	msq, _, e := unix.Syscall(unix.SYS_MSGGET, unix.IPC_PRIVATE, unix.IPC_CREAT|0o600, 0)
	if e != 0 {
		t.Fatal(e)
	}
	defer func() { _, _, _ = unix.Syscall(unix.SYS_MSGCTL, msq, unix.IPC_RMID, 0) }()
	msg := struct {
		typ  int64
		text [16]byte
	}{typ: 1}
	copy(msg.text[:], "a message")
	if _, _, e := unix.Syscall6(unix.SYS_MSGSND, msq, uintptr(unsafe.Pointer(&msg)), 9, 0, 0, 0); e != 0 {
		t.Fatal(e)
	}
	sem, _, e := unix.Syscall(unix.SYS_SEMGET, unix.IPC_PRIVATE, 1, unix.IPC_CREAT|0o600)
	if e != 0 {
		t.Fatal(e)
	}
	defer func() { _, _, _ = unix.Syscall6(unix.SYS_SEMCTL, sem, 0, unix.IPC_RMID, 0, 0, 0) }()

	p := newPool(t, newDirs(t), func(c *Config) { c.NoNamespaces = true })
	for _, caps := range withoutExec {
		for _, o := range []struct {
			kind string
			id   int
		}{{"shm", shm}, {"msg", int(msq)}, {"sem", int(sem)}} {
			got, err := call(t, p, "r9_sysv#"+caps.String(), caps, r9Args{Path: o.kind, N: o.id})
			wantErrno(t, "another program's System V "+o.kind+", "+caps.String(), err, "EPERM")
			if err == nil {
				t.Errorf("%s: another program's %s: %q", caps, o.kind, got)
			}
		}
	}
	if v, _, e := unix.Syscall6(unix.SYS_SEMCTL, sem, 0, 12, 0, 0, 0); e != 0 || v != 0 { // GETVAL
		t.Errorf("the semaphore is %d (%v), want 0", v, e)
	}
	// A tool with exec may use System V objects, its programs' own in
	// its IPC namespace; without one, its enforcement names the gap.
	enf, err := p.Enforcement(context.Background(), "x", tool.Exec|tool.Unsafe)
	if err != nil {
		t.Fatal(err)
	}
	if missing := strings.Join(enf.Missing, "; "); !strings.Contains(missing, "System V shared memory") {
		t.Errorf("without namespaces, a tool with exec: missing %q; want the System V gap named", missing)
	}
}
