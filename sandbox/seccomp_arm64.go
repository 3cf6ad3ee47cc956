//go:build linux && arm64

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the audit architecture the filter allows.
const nativeArch = unix.AUDIT_ARCH_AARCH64

// arm64 has only the generic system calls: fork, chmod, open and mknod
// are clone, fchmodat, openat and mknodat there.
var (
	archProcessCalls  []uint32
	archMetadataCalls []uint32
	archCreateMode    []rule
	archMknod         []rule
)
