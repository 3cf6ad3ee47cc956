//go:build !unix

package sandbox

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add elsewhere.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the worker (there are no process groups to kill).
func killGroup(p *os.Process) { _ = p.Kill() }

// waitExited cannot wait without reaping here.
func waitExited(*os.Process) bool { return false }
