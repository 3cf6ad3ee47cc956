//go:build !unix

package sandbox

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add elsewhere.
func sysProcAttr(bool) *syscall.SysProcAttr { return nil }

// namespacesRefused: namespaces are never asked for here.
func namespacesRefused(error) bool { return false }

// endLeftovers does nothing here.
func endLeftovers() {}

// killGroup kills the worker (there are no process groups to kill).
func killGroup(p *os.Process) { _ = p.Kill() }

// stopGroup and continueGroup do nothing here: there is no signal
// that stops a process.
func stopGroup(*os.Process)     {}
func continueGroup(*os.Process) {}

// stoppedAlone reports true: nothing here tells a worker's children, and
// no restriction is enforced here anyway.
func stoppedAlone(int) (alone, settled bool) { return true, true }

// waitExited cannot wait without reaping here.
func waitExited(*os.Process) bool { return false }

// Undumpable does nothing here: there is no /proc to protect.
func Undumpable() error { return nil }

// startInNamespaces runs start: there are no namespaces here.
func startInNamespaces(start func() error) error { return start() }

// removeTree removes dir and everything in it.
func removeTree(dir string) error { return os.RemoveAll(dir) }
