//go:build linux

package sandbox

import (
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoSignalThroughAFilesOwner: a file whose owner (F_SETOWN) is
// another process, with O_ASYNC, signals the owner at each write, the
// signal chosen with F_SETSIG; the kernel checks the credentials of
// whoever set the owner, not those of the writer. A tool with no
// capability made the agent its pipe's owner: in a PID namespace the
// agent has no id there, and without one Landlock's signal scope
// (ABI 6) refuses the signal. Held; kept as a regression test.
func TestNoSignalThroughAFilesOwner(t *testing.T) {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, syscall.SIGWINCH)
	defer signal.Stop(ch)
	for _, noNS := range []bool{false, true} {
		if noNS && landlockABI() < 6 {
			continue
		}
		p := newPool(t, newDirs(t), func(cfg *Config) { cfg.NoNamespaces = noNS })
		got, err := call(t, p, "r12_sigio", tool.Unsafe, r9Args{N: os.Getpid()})
		// A call after: the signal, sent during the write, has reached
		// the agent's handler by then.
		call(t, p, "echo", tool.Unsafe, r9Args{})
		select {
		case s := <-ch:
			t.Errorf("without namespaces %v: %q, %v: the agent got %v", noNS, got, err, s)
		default:
		}
	}
}
