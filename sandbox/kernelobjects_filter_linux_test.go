//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsKernelObjects: the verdicts of the rules on Landlock
// rulesets, seccomp filters, times and record locks, on the arguments the
// kernel reads.
func TestFilterVerdictsKernelObjects(t *testing.T) {
	t.Parallel()
	all := tool.Exec | tool.WriteFiles | tool.Network | tool.ReadFiles | tool.Env
	for _, c := range []struct {
		name string
		nr   uint32
		args []uint64
		caps tool.Capability
		want uint32
	}{
		{"landlock_create_ruleset", unix.SYS_LANDLOCK_CREATE_RULESET, nil, all &^ tool.Exec, retENOSYS},
		{"landlock_create_ruleset", unix.SYS_LANDLOCK_CREATE_RULESET, nil, 0, retENOSYS},
		{"landlock_create_ruleset", unix.SYS_LANDLOCK_CREATE_RULESET, nil, tool.Exec, retAllow},
		{"landlock_restrict_self", unix.SYS_LANDLOCK_RESTRICT_SELF, nil, 0, retAllow},
		{"utimensat", unix.SYS_UTIMENSAT, nil, all &^ tool.WriteFiles, retEPERM},
		{"utimensat", unix.SYS_UTIMENSAT, nil, tool.WriteFiles, retAllow},
		{"seccomp SECCOMP_SET_MODE_FILTER", unix.SYS_SECCOMP, []uint64{unix.SECCOMP_SET_MODE_FILTER, 0}, all &^ tool.Exec, retEPERM},
		{"seccomp SECCOMP_SET_MODE_FILTER", unix.SYS_SECCOMP, []uint64{unix.SECCOMP_SET_MODE_FILTER, 0}, tool.Exec, retAllow},
		{"seccomp SECCOMP_SET_MODE_STRICT", unix.SYS_SECCOMP, []uint64{unix.SECCOMP_SET_MODE_STRICT, 0}, 0, retAllow},
		{"seccomp SECCOMP_GET_ACTION_AVAIL", unix.SYS_SECCOMP, []uint64{unix.SECCOMP_GET_ACTION_AVAIL, 0}, 0, retAllow},
		{"prctl PR_SET_SECCOMP filter", unix.SYS_PRCTL, []uint64{unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER}, 0, retEPERM},
		{"prctl PR_SET_SECCOMP filter", unix.SYS_PRCTL, []uint64{unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER}, tool.Exec, retAllow},
		{"prctl PR_SET_SECCOMP strict", unix.SYS_PRCTL, []uint64{unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_STRICT}, 0, retAllow},
		{"prctl PR_GET_SECCOMP", unix.SYS_PRCTL, []uint64{unix.PR_GET_SECCOMP, 0}, 0, retAllow},
		{"fcntl F_SETLK", unix.SYS_FCNTL, []uint64{3, unix.F_SETLK, 0}, tool.Network | tool.Env, retEPERM},
		{"fcntl F_SETLKW", unix.SYS_FCNTL, []uint64{3, unix.F_SETLKW, 0}, 0, retEPERM},
		{"fcntl F_OFD_SETLK", unix.SYS_FCNTL, []uint64{3, unix.F_OFD_SETLK, 0}, 0, retEPERM},
		{"fcntl F_OFD_SETLKW", unix.SYS_FCNTL, []uint64{3, unix.F_OFD_SETLKW, 0}, 0, retEPERM},
		{"fcntl F_GETLK", unix.SYS_FCNTL, []uint64{3, unix.F_GETLK, 0}, 0, retAllow},
		{"fcntl F_SETLK", unix.SYS_FCNTL, []uint64{3, unix.F_SETLK, 0}, tool.ReadFiles, retAllow},
		{"fcntl F_SETLK", unix.SYS_FCNTL, []uint64{3, unix.F_SETLK, 0}, tool.WriteFiles, retAllow},
		{"fcntl F_OFD_SETLK", unix.SYS_FCNTL, []uint64{3, unix.F_OFD_SETLK, 0}, tool.Exec, retAllow},
		{"prctl PR_SET_PDEATHSIG SIGTERM", unix.SYS_PRCTL, []uint64{unix.PR_SET_PDEATHSIG, uint64(unix.SIGTERM)}, 0, retEPERM},
		{"prctl PR_SET_PDEATHSIG SIGKILL", unix.SYS_PRCTL, []uint64{unix.PR_SET_PDEATHSIG, uint64(unix.SIGKILL)}, 0, retAllow},
	} {
		if got := verdict(t, c.caps, nativeArch, c.nr, c.args...); got != c.want {
			t.Errorf("%s with %v: %#x, want %#x", c.name, c.caps, got, c.want)
		}
	}
}
