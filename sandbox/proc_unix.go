//go:build unix && !linux

package sandbox

import (
	"context"
	"os"
	"syscall"
)

// sysProcAttr puts a worker in a session and process group of its own,
// so that a kill reaches every process it started. There are no
// namespaces here.
func sysProcAttr(bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}

// namespacesRefused: namespaces are never asked for here.
func namespacesRefused(error) bool { return false }

// killGroup kills the worker's process group.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// stopGroup stops the worker's process group, and continueGroup
// continues it.
func stopGroup(p *os.Process)     { _ = syscall.Kill(-p.Pid, syscall.SIGSTOP) }
func continueGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGCONT) }

// stoppedAlone reports true: nothing here tells a worker's children, and
// no restriction is enforced here anyway.
func stoppedAlone(int) (alone, settled bool) { return true, true }

// waitExited cannot wait without reaping here.
func waitExited(*os.Process) bool { return false }

// endLeftovers does nothing here.
func endLeftovers() {}

// Undumpable does nothing here: there is no /proc to protect.
func Undumpable() error { return nil }

// startInNamespaces runs start: there are no namespaces here.
func startInNamespaces(start func() error) error { return start() }

// removeTree removes dir and everything in it.
func removeTree(dir string) error { return os.RemoveAll(dir) }

// removeTreeCtx is removeTree; ctx is not consulted.
func removeTreeCtx(_ context.Context, dir string) error { return os.RemoveAll(dir) }
