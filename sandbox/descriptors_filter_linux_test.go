//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsDescriptorsAndMemory: the verdicts of the rules on
// descriptors, memory and the parent death signal, on the arguments the
// kernel reads.
func TestFilterVerdictsDescriptorsAndMemory(t *testing.T) {
	t.Parallel()
	all := tool.Exec | tool.WriteFiles | tool.Network | tool.ReadFiles | tool.Env
	for _, c := range []struct {
		name string
		nr   uint32
		args []uint64
		caps tool.Capability
		want uint32
	}{
		{"prctl PR_SET_PDEATHSIG 0", unix.SYS_PRCTL, []uint64{unix.PR_SET_PDEATHSIG, 0}, all, retEPERM},
		{"prctl PR_SET_PDEATHSIG SIGTERM", unix.SYS_PRCTL, []uint64{unix.PR_SET_PDEATHSIG, uint64(unix.SIGTERM)}, 0, retEPERM},
		{"prctl PR_SET_PDEATHSIG SIGKILL", unix.SYS_PRCTL, []uint64{unix.PR_SET_PDEATHSIG, uint64(unix.SIGKILL)}, 0, retAllow},
		{"prctl PR_SET_PDEATHSIG SIGKILL, high bits (EINVAL)", unix.SYS_PRCTL, []uint64{unix.PR_SET_PDEATHSIG, 1<<32 | uint64(unix.SIGKILL)}, 0, retAllow},
		{"prctl PR_GET_PDEATHSIG", unix.SYS_PRCTL, []uint64{unix.PR_GET_PDEATHSIG, 0}, 0, retAllow},
		{"prctl PR_SET_NAME", unix.SYS_PRCTL, []uint64{unix.PR_SET_NAME, 0}, 0, retAllow},
		{"memfd_secret", unix.SYS_MEMFD_SECRET, nil, all &^ tool.Exec, retEPERM},
		{"memfd_secret", unix.SYS_MEMFD_SECRET, nil, tool.Exec, retAllow},
		{"epoll_create1", unix.SYS_EPOLL_CREATE1, nil, tool.ReadFiles | tool.WriteFiles | tool.Env, retEPERM},
		{"epoll_create1", unix.SYS_EPOLL_CREATE1, nil, tool.Network, retAllow},
		{"epoll_create1", unix.SYS_EPOLL_CREATE1, nil, tool.Exec, retAllow},
		{"epoll_ctl", unix.SYS_EPOLL_CTL, nil, 0, retAllow},
		{"dup", unix.SYS_DUP, nil, 0, retEPERM},
		{"dup3", unix.SYS_DUP3, nil, all &^ tool.Exec &^ tool.Network, retEPERM},
		{"dup3", unix.SYS_DUP3, nil, tool.Exec, retAllow},
		{"pidfd_getfd", unix.SYS_PIDFD_GETFD, nil, 0, retEPERM},
		{"fcntl F_DUPFD", unix.SYS_FCNTL, []uint64{3, unix.F_DUPFD, 10}, 0, retEPERM},
		{"fcntl F_DUPFD_CLOEXEC", unix.SYS_FCNTL, []uint64{3, unix.F_DUPFD_CLOEXEC, 10}, tool.ReadFiles, retEPERM},
		{"fcntl F_DUPFD_CLOEXEC", unix.SYS_FCNTL, []uint64{3, unix.F_DUPFD_CLOEXEC, 10}, tool.Network, retAllow},
		{"fcntl F_GETFL", unix.SYS_FCNTL, []uint64{3, unix.F_GETFL, 0}, 0, retAllow},
		{"io_setup", unix.SYS_IO_SETUP, nil, all &^ tool.Exec, retEPERM},
		{"io_setup", unix.SYS_IO_SETUP, nil, tool.Exec, retAllow},
		{"ioctl FS_IOC_REMOVE_ENCRYPTION_KEY", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_REMOVE_ENCRYPTION_KEY, 0}, all, retEPERM},
		{"ioctl FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS, 0}, 0, retEPERM},
		{"ioctl FS_IOC_ADD_ENCRYPTION_KEY", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_ADD_ENCRYPTION_KEY, 0}, all, retEPERM},
		{"ioctl FS_IOC_GET_ENCRYPTION_KEY_STATUS", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_GET_ENCRYPTION_KEY_STATUS, 0}, 0, retAllow},
		{"ioctl BTRFS_IOC_SUBVOL_CREATE", unix.SYS_IOCTL, []uint64{3, 0x5000940e, 0}, all, retEPERM},
		{"ioctl BTRFS_IOC_SNAP_CREATE_V2", unix.SYS_IOCTL, []uint64{3, 0x50009417, 0}, all, retEPERM},
		{"ioctl BTRFS_IOC_SNAP_DESTROY_V2", unix.SYS_IOCTL, []uint64{3, 0x5000943f, 0}, 0, retEPERM},
		{"ioctl BTRFS_IOC_SUBVOL_SETFLAGS", unix.SYS_IOCTL, []uint64{3, 0x4008941a, 0}, tool.WriteFiles, retEPERM},
		{"ioctl BTRFS_IOC_SET_RECEIVED_SUBVOL", unix.SYS_IOCTL, []uint64{3, 0xc0c89425, 0}, all, retEPERM},
		{"ioctl BTRFS_IOC_START_SYNC", unix.SYS_IOCTL, []uint64{3, 0x80089418, 0}, 0, retAllow},
		{"ioctl BTRFS_IOC_SUBVOL_GETFLAGS", unix.SYS_IOCTL, []uint64{3, 0x80089419, 0}, 0, retAllow},
		{"ioctl BTRFS_IOC_INO_LOOKUP_USER", unix.SYS_IOCTL, []uint64{3, 0xd000943e, 0}, 0, retAllow},
		{"prctl PR_SET_NO_NEW_PRIVS", unix.SYS_PRCTL, []uint64{unix.PR_SET_NO_NEW_PRIVS, 1}, all, retAllow},
	} {
		if got := verdict(t, c.caps, nativeArch, c.nr, c.args...); got != c.want {
			t.Errorf("%s with %v: %#x, want %#x", c.name, c.caps, got, c.want)
		}
	}
}
