//go:build linux && (amd64 || arm64)

package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// verdict runs the assembled filter of caps over one system call in
// x/net/bpf's virtual machine. The machine loads words big-endian where
// the kernel loads them in the host's order, so the input is written
// big-endian word by word: the same values the kernel would compare.
func verdict(t *testing.T, caps tool.Capability, arch, nr uint32, args ...uint64) uint32 {
	t.Helper()
	raw, err := filterProgram(nativeArch, filterRules(caps))
	if err != nil {
		t.Fatal(err)
	}
	prog, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatalf("the filter does not disassemble: %v", prog)
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatalf("the filter is not a valid program: %v", err)
	}
	data := make([]byte, 64)
	binary.BigEndian.PutUint32(data[offNr:], nr)
	binary.BigEndian.PutUint32(data[offArch:], arch)
	for i, a := range args {
		// The low half is at the argument's offset on a little-endian
		// host, which both filtered architectures are.
		binary.BigEndian.PutUint32(data[offArgs+8*i:], uint32(a))
		binary.BigEndian.PutUint32(data[offArgs+8*i+4:], uint32(a>>32))
	}
	v, err := vm.Run(data)
	if err != nil {
		t.Fatalf("run the filter: %v", err)
	}
	return uint32(v)
}

func TestFilterVerdicts(t *testing.T) {
	t.Parallel()
	all := tool.Exec | tool.WriteFiles | tool.Network | tool.ReadFiles | tool.Env
	type call struct {
		name string
		nr   uint32
		args []uint64
	}
	cases := []struct {
		call call
		caps tool.Capability
		want uint32
	}{
		{call{"getpid", unix.SYS_GETPID, nil}, 0, retAllow},
		{call{"openat", unix.SYS_OPENAT, nil}, 0, retAllow},
		{call{"execve", unix.SYS_EXECVE, nil}, 0, retEPERM},
		{call{"execve", unix.SYS_EXECVE, nil}, tool.Exec, retAllow},
		{call{"execveat", unix.SYS_EXECVEAT, nil}, 0, retEPERM},
		{call{"memfd_create", unix.SYS_MEMFD_CREATE, nil}, 0, retEPERM},
		{call{"memfd_create", unix.SYS_MEMFD_CREATE, nil}, tool.Exec, retAllow},
		{call{"clone of a thread", unix.SYS_CLONE, []uint64{unix.CLONE_VM | unix.CLONE_THREAD | unix.CLONE_SIGHAND}}, 0, retAllow},
		{call{"clone of a process", unix.SYS_CLONE, []uint64{uint64(unix.SIGCHLD)}}, 0, retEPERM},
		{call{"clone of a process, CLONE_THREAD in the high half", unix.SYS_CLONE, []uint64{unix.CLONE_THREAD << 32}}, 0, retEPERM},
		{call{"clone of a process", unix.SYS_CLONE, []uint64{uint64(unix.SIGCHLD)}}, tool.Exec, retAllow},
		{call{"clone3", unix.SYS_CLONE3, nil}, 0, retENOSYS},
		{call{"clone3", unix.SYS_CLONE3, nil}, tool.Exec, retENOSYS},
		{call{"clone of a process in a new user namespace", unix.SYS_CLONE, []uint64{unix.CLONE_NEWUSER | uint64(unix.SIGCHLD)}}, tool.Exec, retEPERM},
		{call{"clone of a process in a new user namespace", unix.SYS_CLONE, []uint64{unix.CLONE_NEWUSER | uint64(unix.SIGCHLD)}}, all, retEPERM},
		{call{"clone of a process in a new PID namespace", unix.SYS_CLONE, []uint64{unix.CLONE_NEWPID | uint64(unix.SIGCHLD)}}, tool.Exec, retAllow}, // refused by the kernel without CAP_SYS_ADMIN
		{call{"open_tree", unix.SYS_OPEN_TREE, nil}, all, retEPERM},
		{call{"open_tree_attr", unix.SYS_OPEN_TREE_ATTR, nil}, all, retEPERM},
		{call{"fchmodat", unix.SYS_FCHMODAT, nil}, tool.ReadFiles, retEPERM},
		{call{"fchmodat2", unix.SYS_FCHMODAT2, nil}, 0, retEPERM},
		{call{"fchownat", unix.SYS_FCHOWNAT, nil}, 0, retEPERM},
		{call{"fchmodat", unix.SYS_FCHMODAT, nil}, tool.WriteFiles, retAllow},
		{call{"mknodat of a fifo", unix.SYS_MKNODAT, []uint64{0, 0, unix.S_IFIFO | 0o644}}, 0, retEPERM},
		{call{"mknodat of a fifo", unix.SYS_MKNODAT, []uint64{0, 0, unix.S_IFIFO | 0o644}}, tool.WriteFiles, retAllow},
		{call{"mknodat of a file", unix.SYS_MKNODAT, []uint64{0, 0, unix.S_IFREG | 0o644}}, tool.WriteFiles, retAllow},
		{call{"mknodat of a socket", unix.SYS_MKNODAT, []uint64{0, 0, unix.S_IFSOCK | 0o644}}, tool.WriteFiles, retAllow},
		{call{"mknodat of a character device", unix.SYS_MKNODAT, []uint64{0, 0, unix.S_IFCHR | 0o644}}, tool.WriteFiles, retEPERM},
		{call{"mknodat of a block device", unix.SYS_MKNODAT, []uint64{0, 0, unix.S_IFBLK | 0o644}}, tool.WriteFiles, retEPERM},
		{call{"socket", unix.SYS_SOCKET, nil}, tool.ReadFiles, retEPERM},
		{call{"socket, IPv4", unix.SYS_SOCKET, []uint64{unix.AF_INET, unix.SOCK_STREAM}}, tool.Network, retAllow},
		{call{"socket, IPv6", unix.SYS_SOCKET, []uint64{unix.AF_INET6, unix.SOCK_DGRAM}}, tool.Network, retAllow},
		{call{"socket, IPv4, high bits", unix.SYS_SOCKET, []uint64{unix.AF_INET | 1<<32, unix.SOCK_STREAM}}, tool.Network, retAllow},
		{call{"socket, netlink route", unix.SYS_SOCKET, []uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE}}, tool.Network, retAllow},
		{call{"socket, netlink sock_diag", unix.SYS_SOCKET, []uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_SOCK_DIAG}}, tool.Network, retEPERM},
		{call{"socket, unix", unix.SYS_SOCKET, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}}, all, retEPERM},
		{call{"socket, vsock", unix.SYS_SOCKET, []uint64{unix.AF_VSOCK, unix.SOCK_STREAM}}, all, retEPERM},
		{call{"socket, unspecified", unix.SYS_SOCKET, nil}, tool.Network, retEPERM},
		{call{"socketpair, stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_STREAM | unix.SOCK_CLOEXEC | unix.SOCK_NONBLOCK}}, tool.Exec, retAllow},
		{call{"socketpair, stream, without exec", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_STREAM | unix.SOCK_CLOEXEC}}, all &^ tool.Exec &^ tool.Network, retEPERM},
		{call{"socketpair, datagram", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_CLOEXEC}}, 0, retEPERM},
		{call{"socketpair, seqpacket", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_SEQPACKET}}, tool.ReadFiles | tool.Exec, retEPERM},
		{call{"socketpair, datagram", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_DGRAM}}, tool.Network, retEPERM},
		{call{"socketpair, stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}}, tool.Network | tool.Exec, retAllow},
		{call{"socketpair, TIPC stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_TIPC, unix.SOCK_STREAM}}, all &^ tool.Network, retEPERM},
		{call{"socketpair, RDS stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_RDS, unix.SOCK_STREAM | unix.SOCK_CLOEXEC}}, tool.Exec, retEPERM},
		{call{"socketpair, unix stream, high bits", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX | 1<<32, unix.SOCK_STREAM}}, tool.Exec, retAllow},
		{call{"socketpair, TIPC stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_TIPC, unix.SOCK_STREAM}}, tool.Network, retEPERM},
		{call{"bind", unix.SYS_BIND, nil}, all &^ tool.Network, retEPERM},
		{call{"connect", unix.SYS_CONNECT, nil}, 0, retEPERM},
		{call{"listen", unix.SYS_LISTEN, nil}, 0, retEPERM},
		{call{"connect", unix.SYS_CONNECT, nil}, tool.Network, retAllow},
		{call{"openat of a file", unix.SYS_OPENAT, []uint64{0, 0, unix.O_CREAT | unix.O_WRONLY, 0o755}}, tool.WriteFiles, retAllow},
		{call{"openat of a set-group-ID file", unix.SYS_OPENAT, []uint64{0, 0, unix.O_CREAT | unix.O_WRONLY, unix.S_ISGID | 0o745}}, all, retEPERM},
		{call{"openat of a set-user-ID file", unix.SYS_OPENAT, []uint64{0, 0, unix.O_CREAT | unix.O_WRONLY, unix.S_ISUID | 0o755}}, 0, retEPERM},
		{call{"openat2", unix.SYS_OPENAT2, nil}, all, retENOSYS},
		{call{"mmap, private anonymous", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_PRIVATE | unix.MAP_ANONYMOUS}}, 0, retAllow},
		{call{"mmap, shared file", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_SHARED}}, 0, retAllow},
		{call{"mmap, shared anonymous", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_SHARED | unix.MAP_ANONYMOUS}}, all &^ tool.Exec, retEPERM},
		{call{"mmap, shared anonymous, validated", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_SHARED_VALIDATE | unix.MAP_ANONYMOUS}}, 0, retEPERM},
		{call{"mmap, shared anonymous", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_SHARED | unix.MAP_ANONYMOUS}}, tool.Exec, retAllow},
		{call{"mmap, private anonymous growing down", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_PRIVATE | unix.MAP_ANONYMOUS | unix.MAP_GROWSDOWN}}, all &^ tool.Exec, retEPERM},
		{call{"mmap, private anonymous growing down", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_PRIVATE | unix.MAP_ANONYMOUS | unix.MAP_GROWSDOWN}}, tool.Exec, retAllow},
		{call{"mmap, private anonymous stack", unix.SYS_MMAP, []uint64{0, 4096, 3, unix.MAP_PRIVATE | unix.MAP_ANONYMOUS | unix.MAP_STACK}}, 0, retAllow},
		{call{"shmget", unix.SYS_SHMGET, nil}, 0, retEPERM},
		{call{"shmget", unix.SYS_SHMGET, nil}, tool.Exec, retAllow},
		{call{"semget", unix.SYS_SEMGET, nil}, all &^ tool.Exec, retEPERM},
		{call{"msgget", unix.SYS_MSGGET, nil}, 0, retEPERM},
		{call{"mq_open", unix.SYS_MQ_OPEN, nil}, 0, retEPERM},
		{call{"semget", unix.SYS_SEMGET, nil}, tool.Exec, retAllow},
		{call{"msgget", unix.SYS_MSGGET, nil}, tool.Exec, retAllow},
		{call{"inotify_add_watch", unix.SYS_INOTIFY_ADD_WATCH, nil}, all &^ tool.ReadFiles, retEPERM},
		{call{"fanotify_mark", unix.SYS_FANOTIFY_MARK, nil}, 0, retEPERM},
		{call{"inotify_add_watch", unix.SYS_INOTIFY_ADD_WATCH, nil}, tool.ReadFiles, retAllow},
		{call{"setxattr", unix.SYS_SETXATTR, nil}, all &^ tool.WriteFiles, retEPERM},
		{call{"fremovexattr", unix.SYS_FREMOVEXATTR, nil}, 0, retEPERM},
		{call{"setxattrat", unix.SYS_SETXATTRAT, nil}, 0, retEPERM},
		{call{"file_setattr", unix.SYS_FILE_SETATTR, nil}, 0, retEPERM},
		{call{"setxattr", unix.SYS_SETXATTR, nil}, tool.WriteFiles, retAllow},
		{call{"ioctl FS_IOC_SETFLAGS", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_SETFLAGS, 0}}, all &^ tool.WriteFiles, retEPERM},
		{call{"ioctl FS_IOC_FSSETXATTR", unix.SYS_IOCTL, []uint64{3, fsIocFssetxattr, 0}}, 0, retEPERM},
		{call{"ioctl FS_IOC_SETVERSION", unix.SYS_IOCTL, []uint64{3, fsIocSetversion, 0}}, all &^ tool.WriteFiles, retEPERM},
		{call{"ioctl EXT4_IOC_SETVERSION", unix.SYS_IOCTL, []uint64{3, ext4IocSetversion, 0}}, 0, retEPERM},
		{call{"ioctl FS_IOC_ENABLE_VERITY", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_ENABLE_VERITY, 0}}, all &^ tool.WriteFiles, retEPERM},
		{call{"ioctl FS_IOC_SET_ENCRYPTION_POLICY", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_SET_ENCRYPTION_POLICY, 0}}, 0, retEPERM},
		{call{"ioctl FS_IOC_SETVERSION", unix.SYS_IOCTL, []uint64{3, fsIocSetversion, 0}}, tool.WriteFiles, retAllow},
		{call{"ioctl FS_IOC_GETVERSION", unix.SYS_IOCTL, []uint64{3, 0x80087601, 0}}, 0, retAllow},
		{call{"ioctl FS_IOC_GETFLAGS", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_GETFLAGS, 0}}, 0, retAllow},
		{call{"ioctl USERFAULTFD_IOC_NEW", unix.SYS_IOCTL, []uint64{3, 0xaa00, 0}}, all, retEPERM},
		{call{"syslog READ_ALL", unix.SYS_SYSLOG, []uint64{3, 0, 4096}}, all &^ tool.ReadFiles, retEPERM},
		{call{"syslog READ_ALL", unix.SYS_SYSLOG, []uint64{3, 0, 4096}}, tool.ReadFiles, retAllow},
		{call{"fcntl F_SETLEASE", unix.SYS_FCNTL, []uint64{3, unix.F_SETLEASE, unix.F_RDLCK}}, all, retEPERM},
		{call{"fcntl F_GETLEASE", unix.SYS_FCNTL, []uint64{3, unix.F_GETLEASE, 0}}, 0, retAllow},
		{call{"fcntl F_SETLK", unix.SYS_FCNTL, []uint64{3, unix.F_SETLK, 0}}, tool.ReadFiles, retAllow},
		{call{"fcntl F_SETFD", unix.SYS_FCNTL, []uint64{3, unix.F_SETFD, unix.FD_CLOEXEC}}, 0, retAllow},
		{call{"ioctl TIOCGWINSZ", unix.SYS_IOCTL, []uint64{3, unix.TIOCGWINSZ, 0}}, 0, retAllow},
		{call{"ioctl FS_IOC_SETFLAGS", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_SETFLAGS, 0}}, tool.WriteFiles, retAllow},
	}
	// What docs/security.md says no tool may call, whatever it declares,
	// named here rather than read from deniedAlways: a call taken out of
	// the filter's list must fail the test.
	for name, nr := range map[string]uint32{
		"ptrace": unix.SYS_PTRACE, "process_vm_readv": unix.SYS_PROCESS_VM_READV, "process_vm_writev": unix.SYS_PROCESS_VM_WRITEV,
		"unshare": unix.SYS_UNSHARE, "setns": unix.SYS_SETNS, "mount": unix.SYS_MOUNT, "umount2": unix.SYS_UMOUNT2,
		"pivot_root": unix.SYS_PIVOT_ROOT, "chroot": unix.SYS_CHROOT, "mount_setattr": unix.SYS_MOUNT_SETATTR,
		"open_tree": unix.SYS_OPEN_TREE, "open_tree_attr": unix.SYS_OPEN_TREE_ATTR, "move_mount": unix.SYS_MOVE_MOUNT,
		"fsopen": unix.SYS_FSOPEN, "fsmount": unix.SYS_FSMOUNT, "fsconfig": unix.SYS_FSCONFIG, "fspick": unix.SYS_FSPICK,
		"io_uring_setup": unix.SYS_IO_URING_SETUP, "io_uring_enter": unix.SYS_IO_URING_ENTER, "io_uring_register": unix.SYS_IO_URING_REGISTER,
		"keyctl": unix.SYS_KEYCTL, "add_key": unix.SYS_ADD_KEY, "request_key": unix.SYS_REQUEST_KEY,
		"bpf": unix.SYS_BPF, "perf_event_open": unix.SYS_PERF_EVENT_OPEN, "userfaultfd": unix.SYS_USERFAULTFD,
	} {
		for _, caps := range []tool.Capability{0, all} {
			cases = append(cases, struct {
				call call
				caps tool.Capability
				want uint32
			}{call{name, nr, nil}, caps, retEPERM})
		}
	}
	for _, c := range cases {
		if got := verdict(t, c.caps, nativeArch, c.call.nr, c.call.args...); got != c.want {
			t.Errorf("%s (%d) with %v: %#x, want %#x", c.call.name, c.call.nr, c.caps, got, c.want)
		}
	}
}

// TestFilterDeniesOtherArchitectures: a call made under another
// architecture's numbers (i386's int 0x80 from an x86-64 process, whose
// 11 is execve) or with the x32 bit is denied, whatever its number.
func TestFilterDeniesOtherArchitectures(t *testing.T) {
	t.Parallel()
	all := tool.Exec | tool.WriteFiles | tool.Network
	for _, arch := range []uint32{unix.AUDIT_ARCH_I386, unix.AUDIT_ARCH_ARM, unix.AUDIT_ARCH_X86_64 ^ unix.AUDIT_ARCH_AARCH64 ^ nativeArch} {
		if arch == nativeArch {
			continue
		}
		for _, nr := range []uint32{unix.SYS_GETPID, 11} {
			if got := verdict(t, all, arch, nr); got != retEPERM {
				t.Errorf("system call %d of architecture %#x: %#x, want EPERM", nr, arch, got)
			}
		}
	}
	if nativeArch == unix.AUDIT_ARCH_X86_64 {
		for _, nr := range []uint32{0x40000000, 0x40000000 + 59, 0xffffffff} {
			if got := verdict(t, all, nativeArch, nr); got != retEPERM {
				t.Errorf("x32 system call %#x: %#x, want EPERM", nr, got)
			}
		}
	}
}
