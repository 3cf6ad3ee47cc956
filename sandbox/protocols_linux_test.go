//go:build linux

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNoProtocolModulesLoaded: asking for a socket of a protocol the
// kernel has as a module (SCTP, DCCP, L2TP) loads the module where it is
// not loaded, for any user: code of the kernel's the machine did not
// run before, where its bugs have been. A tool with network asked for
// SCTP and DCCP sockets of IPv4 and IPv6. It makes those of the
// protocols built in: the family's default, TCP, UDP, ICMP and MPTCP.
func TestNoProtocolModulesLoaded(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, caps := range []tool.Capability{tool.Network | tool.Unsafe, tool.Network | tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Unsafe} {
		for _, c := range []struct {
			socket string
			proto  int
		}{
			{"inet/stream", unix.IPPROTO_SCTP},
			{"inet6/stream", unix.IPPROTO_SCTP},
			{"inet/dgram", unix.IPPROTO_DCCP},
			{"inet6/dgram", unix.IPPROTO_L2TP},
		} {
			got, err := call(t, p, "r10_socket#"+caps.String(), caps, r9Args{Path: c.socket, N: c.proto})
			wantErrno(t, "a socket of a protocol of a module, "+caps.String(), err, "EPERM")
			if err == nil {
				t.Errorf("%s: a %s socket of protocol %d: %s", caps, c.socket, c.proto, got)
			}
		}
		// The positive control: the protocols built in, asked for by
		// number, and what Go's net package makes.
		for _, c := range []struct {
			socket string
			proto  int
		}{
			{"inet/stream", 0},
			{"inet/stream", unix.IPPROTO_TCP},
			{"inet6/stream", unix.IPPROTO_TCP},
			{"inet/dgram", unix.IPPROTO_UDP},
			{"inet6/dgram", 0},
		} {
			if got, err := call(t, p, "r10_socket#"+caps.String(), caps, r9Args{Path: c.socket, N: c.proto}); err != nil || got != "made" {
				if c.socket == "inet6/stream" || c.socket == "inet6/dgram" {
					if err != nil && errnoName(err) == "EAFNOSUPPORT" {
						continue // no IPv6 on this machine
					}
				}
				t.Errorf("%s: a %s socket of protocol %d: %q, %v", caps, c.socket, c.proto, got, err)
			}
		}
		if got, err := call(t, p, "r10_net#"+caps.String(), caps, r9Args{}); err != nil || got != "connected" {
			t.Errorf("%s: TCP and UDP on the loopback address: %q, %v", caps, got, err)
		}
	}
}
