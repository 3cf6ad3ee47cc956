//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsPrlimit: no tool sets the limits of a process but
// its own (pid 0), on the arguments the kernel reads.
func TestFilterVerdictsPrlimit(t *testing.T) {
	t.Parallel()
	all := tool.Exec | tool.WriteFiles | tool.Network | tool.ReadFiles | tool.Env
	for _, c := range []struct {
		args []uint64
		caps tool.Capability
		want uint32
	}{
		{[]uint64{1234, unix.RLIMIT_NOFILE}, all, retEPERM},
		{[]uint64{1234, unix.RLIMIT_NOFILE}, 0, retEPERM},
		{[]uint64{1, unix.RLIMIT_CPU}, tool.Exec, retEPERM},
		{[]uint64{0, unix.RLIMIT_NOFILE}, all, retAllow},
		{[]uint64{0, unix.RLIMIT_NOFILE}, 0, retAllow},
	} {
		if got := verdict(t, c.caps, nativeArch, unix.SYS_PRLIMIT64, c.args...); got != c.want {
			t.Errorf("prlimit64 of pid %d with %v: %#x, want %#x", c.args[0], c.caps, got, c.want)
		}
	}
}
