//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// r9Args are the arguments of the r9_ probes.
type r9Args struct {
	Path string `json:"path,omitempty"`
	N    int    `json:"n,omitempty"`
}

// r9Kept are descriptors the r9_ probes keep open across calls.
var r9Kept []int

// probeSet9 runs the r9_ probes: hostile tools, each answering what it took.
// ok is false for another id.
func probeSet9(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r9Args]("r9_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r9_other":
		// What a process may do to another of its user's, pid a.N (0:
		// itself), that the kernel checks against the user alone, not
		// as a signal or ptrace: a.Path names it.
		pid := a.N
		var err error
		switch a.Path {
		case "prlimit":
			// A descriptor limit of 1: the process opens nothing more.
			err = unix.Prlimit(pid, unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: 1, Max: 1}, nil)
		case "nice":
			err = unix.Setpriority(unix.PRIO_PROCESS, pid, 19)
		case "sched":
			// SCHED_IDLE: it runs when nothing else would.
			_, _, e := unix.Syscall(unix.SYS_SCHED_SETSCHEDULER, uintptr(pid), 5, uintptr(unsafe.Pointer(new(int32))))
			if e != 0 {
				err = e
			}
		case "affinity":
			var set unix.CPUSet
			set.Set(0)
			err = unix.SchedSetaffinity(pid, &set)
		case "ioprio":
			// IOPRIO_WHO_PROCESS, IOPRIO_CLASS_IDLE.
			_, _, e := unix.Syscall(unix.SYS_IOPRIO_SET, 1, uintptr(pid), 3<<13)
			if e != 0 {
				err = e
			}
		default:
			return "", fmt.Errorf("no operation %q", a.Path), true
		}
		if err != nil {
			return "", errnoOp(a.Path, err), true
		}
		return "done", nil, true
	case "r9_sysv":
		// Another program's System V object, by its id a.N: a.Path
		// "shm" attaches segment a.N and reads it, "msg" takes a message
		// off queue a.N, "sem" sets semaphore 0 of set a.N to 7.
		switch a.Path {
		case "shm":
			addr, _, e := unix.Syscall(unix.SYS_SHMAT, uintptr(a.N), 0, unix.SHM_RDONLY)
			if e != 0 {
				return "", errnoOp("shmat", e), true
			}
			b := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&addr))), 16)
			out := string(b[:clen(b)])
			_, _, _ = unix.Syscall(unix.SYS_SHMDT, addr, 0, 0)
			return out, nil, true
		case "msg":
			var buf struct {
				typ  int64
				text [64]byte
			}
			n, _, e := unix.Syscall6(unix.SYS_MSGRCV, uintptr(a.N), uintptr(unsafe.Pointer(&buf)), 64, 0, unix.IPC_NOWAIT, 0)
			if e != 0 {
				return "", errnoOp("msgrcv", e), true
			}
			return string(buf.text[:n]), nil, true
		case "sem":
			_, _, e := unix.Syscall6(unix.SYS_SEMCTL, uintptr(a.N), 0, 16, 7, 0, 0) // SETVAL
			if e != 0 {
				return "", errnoOp("semctl", e), true
			}
			return "set", nil, true
		}
		return "", fmt.Errorf("no object %q", a.Path), true
	case "r9_squat":
		// An abstract unix socket name, a.Path, bound to one end of a
		// unix stream pair and kept: the name is the machine's (its
		// network namespace's), and the program that would bind it
		// cannot.
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("socketpair", err), true
		}
		if err := unix.Bind(fds[0], &unix.SockaddrUnix{Name: "@" + a.Path}); err != nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
			return "", errnoOp("bind", err), true
		}
		r9Kept = append(r9Kept, fds[0], fds[1])
		return "bound", nil, true
	case "r9_listen":
		// What an honest tool with network binds: a TCP listener and a
		// UDP socket on the loopback address, and an IPv6 one where the
		// machine has IPv6.
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			return "", err, true
		}
		ln.Close()
		pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			return "", err, true
		}
		pc.Close()
		if ln, err := net.Listen("tcp6", "[::1]:0"); err == nil {
			ln.Close()
		} else if !errors.Is(err, unix.EADDRNOTAVAIL) && !errors.Is(err, unix.EAFNOSUPPORT) {
			return "", err, true
		}
		return "listened", nil, true
	}
	return "", fmt.Errorf("no probe %q", id), true
}

// clen is the length of b up to its first NUL.
func clen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}
