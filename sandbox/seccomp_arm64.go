//go:build linux && arm64

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the audit architecture the filter allows.
const nativeArch = unix.AUDIT_ARCH_AARCH64

// arm64 has only the generic system calls: fork, chmod and mknod are
// clone, fchmodat and mknodat there.
var (
	archProcessCalls  []uint32
	archMetadataCalls []uint32
	archMknod         []rule
)
