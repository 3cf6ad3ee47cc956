//go:build linux && amd64

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the audit architecture the filter allows.
const nativeArch = unix.AUDIT_ARCH_X86_64

// The system calls x86-64 has beside the generic ones: process creation,
// epoll instances and duplicates, inotify instances by their older
// name, metadata changes (times among them),
// files created, and device nodes and modes by their older names.
var (
	archProcessCalls  = []uint32{unix.SYS_FORK, unix.SYS_VFORK}
	archEpollDup      = []uint32{unix.SYS_EPOLL_CREATE, unix.SYS_DUP2}
	archInotifyInit   = []uint32{unix.SYS_INOTIFY_INIT}
	archMetadataCalls = []uint32{unix.SYS_CHMOD, unix.SYS_CHOWN, unix.SYS_LCHOWN, unix.SYS_MKNOD, unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT}
	archCreateMode    = []rule{
		{nr: unix.SYS_OPEN, ret: retEPERM, arg: 2, test: anySet, mask: setID},
		{nr: unix.SYS_CREAT, ret: retEPERM, arg: 1, test: anySet, mask: setID},
	}
	archMknod = []rule{
		{nr: unix.SYS_MKNOD, ret: retEPERM, arg: 1, test: anySet, mask: unix.S_IFCHR | setID},
		{nr: unix.SYS_CHMOD, ret: retEPERM, arg: 1, test: anySet, mask: setID},
	}
)
