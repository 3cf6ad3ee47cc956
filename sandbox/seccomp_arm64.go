//go:build linux && arm64

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the audit architecture the filter allows.
const nativeArch = unix.AUDIT_ARCH_AARCH64

// arm64 has only the generic system calls: fork, epoll_create, dup2,
// chmod, open, mknod and utimes are clone, epoll_create1, dup3, fchmodat,
// openat, mknodat and utimensat there.
var (
	archProcessCalls  []uint32
	archEpollDup      []uint32
	archInotifyInit   []uint32
	archMetadataCalls []uint32
	archCreateMode    []rule
	archMknod         []rule
)
