//go:build linux && !amd64 && !arm64

package sandbox

// nativeArch is 0: there is no filter for this architecture, and a
// worker's Enforcement says seccomp is missing.
const nativeArch = 0

var (
	archProcessCalls  []uint32
	archMetadataCalls []uint32
	archMknod         []rule
)
