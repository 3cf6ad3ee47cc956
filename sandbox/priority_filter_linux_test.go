//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsPriority: no tool changes the priority, scheduling
// policy, CPUs or I/O priority of a process but its own, nor of every
// process of its user, on the arguments the kernel reads.
func TestFilterVerdictsPriority(t *testing.T) {
	t.Parallel()
	all := tool.Exec | tool.WriteFiles | tool.Network | tool.ReadFiles | tool.Env
	for _, c := range []struct {
		name string
		nr   uint32
		args []uint64
		want uint32
	}{
		{"setpriority PRIO_PROCESS other", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PROCESS, 1234, 19}, retEPERM},
		{"setpriority PRIO_PGRP other", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PGRP, 1234, 19}, retEPERM},
		{"setpriority PRIO_USER", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_USER, 0, 19}, retEPERM},
		{"setpriority PRIO_USER root", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_USER, 1000, 19}, retEPERM},
		{"setpriority itself", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PROCESS, 0, 10}, retAllow},
		{"setpriority its group", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PGRP, 0, 10}, retAllow},
		{"ioprio_set other", unix.SYS_IOPRIO_SET, []uint64{1, 1234, 3 << 13}, retEPERM},
		{"ioprio_set IOPRIO_WHO_USER", unix.SYS_IOPRIO_SET, []uint64{3, 0, 3 << 13}, retEPERM},
		{"ioprio_set itself", unix.SYS_IOPRIO_SET, []uint64{1, 0, 3 << 13}, retAllow},
		{"sched_setscheduler other", unix.SYS_SCHED_SETSCHEDULER, []uint64{1234, 5, 0}, retEPERM},
		{"sched_setscheduler itself", unix.SYS_SCHED_SETSCHEDULER, []uint64{0, 5, 0}, retAllow},
		{"sched_setparam other", unix.SYS_SCHED_SETPARAM, []uint64{1234, 0}, retEPERM},
		{"sched_setattr other", unix.SYS_SCHED_SETATTR, []uint64{1234, 0, 0}, retEPERM},
		{"sched_setattr itself", unix.SYS_SCHED_SETATTR, []uint64{0, 0, 0}, retAllow},
		{"sched_setaffinity other", unix.SYS_SCHED_SETAFFINITY, []uint64{1234, 8, 0}, retEPERM},
		{"sched_setaffinity itself", unix.SYS_SCHED_SETAFFINITY, []uint64{0, 8, 0}, retAllow},
		{"sched_getaffinity other", unix.SYS_SCHED_GETAFFINITY, []uint64{1234, 8, 0}, retAllow},
	} {
		for _, caps := range []tool.Capability{0, all} {
			if got := verdict(t, caps, nativeArch, c.nr, c.args...); got != c.want {
				t.Errorf("%s with %v: %#x, want %#x", c.name, caps, got, c.want)
			}
		}
	}
}
