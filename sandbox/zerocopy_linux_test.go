//go:build linux

package sandbox

import (
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoLockedMemoryOfTheUser: what a MSG_ZEROCOPY send queues is
// pinned, and the kernel counts it against the locked memory of the
// user (user_struct's locked_vm), every process of the user together,
// which io_uring's registered buffers, perf's buffers and every other
// zerocopy send of the user count against too. A tool with network
// sent on loopback connections whose peers never read and pinned
// 7,279,616 bytes, all of its user's 8 MiB (RLIMIT_MEMLOCK), kept
// across calls: another worker's zerocopy send was then refused
// (ENOBUFS) before a byte, as would be every program of the user
// without CAP_IPC_LOCK. SO_ZEROCOPY is refused to every tool; Go's net
// never sets it, and without it MSG_ZEROCOPY copies.
func TestNoLockedMemoryOfTheUser(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, caps := range []tool.Capability{tool.Network | tool.Unsafe, tool.Network | tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Env | tool.Unsafe} {
		id := "#" + caps.String()
		got, err := call(t, p, "r11_zerocopy"+id, caps, r9Args{N: 32})
		wantErrno(t, "zerocopy sends, "+caps.String(), err, "EPERM")
		if err == nil {
			other, oerr := call(t, p, "r11_zerocopy#other"+id, caps, r9Args{N: 1})
			t.Errorf("%s: zerocopy sends pinned the user's locked memory: %s; another worker's then: %q, %v", caps, got, other, oerr)
		}
		// The positive control: Go's listeners, connections and UDP
		// sockets.
		if got, err := call(t, p, "r10_net"+id, caps, r9Args{}); err != nil || got != "connected" {
			t.Errorf("%s: an honest tool with network: %q, %v", caps, got, err)
		}
	}
}
