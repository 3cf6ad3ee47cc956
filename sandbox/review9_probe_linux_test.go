//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// r9Args are the arguments of the r9_ probes.
type r9Args struct {
	Path string `json:"path,omitempty"`
	N    int    `json:"n,omitempty"`
}

// review9Probe runs the r9_ probes of a ninth hostile-author review.
// ok is false for another id.
func review9Probe(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
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
	}
	return "", fmt.Errorf("no probe %q", id), true
}
