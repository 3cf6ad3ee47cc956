//go:build linux

package sandbox

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts a worker in a process group of its own, so that a
// kill reaches every process it started, and kills it when the thread
// that started it dies (the pipes' EOF ends it otherwise).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the worker's process group. Called only while the
// worker has not been reaped, so its pid cannot have been reused.
func killGroup(p *os.Process) {
	_ = unix.Kill(-p.Pid, unix.SIGKILL)
}

// waitExited waits until p has exited without reaping it, so that the
// rest of its group can still be killed by its id. It reports whether
// it could.
func waitExited(p *os.Process) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, p.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil
	}
}
