//go:build unix && !linux

package sandbox

import (
	"os"
	"syscall"
)

// sysProcAttr puts a worker in a process group of its own, so that a
// kill reaches every process it started.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the worker's process group.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// waitExited cannot wait without reaping here.
func waitExited(*os.Process) bool { return false }
