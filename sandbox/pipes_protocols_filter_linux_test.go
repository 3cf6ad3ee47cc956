//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsPipeSize: no pipe grows without exec.
func TestFilterVerdictsPipeSize(t *testing.T) {
	t.Parallel()
	all := tool.WriteFiles | tool.Network | tool.ReadFiles | tool.Env
	for _, c := range []struct {
		cmd  uint64
		caps tool.Capability
		want uint32
	}{
		{unix.F_SETPIPE_SZ, 0, retEPERM},
		{unix.F_SETPIPE_SZ, all, retEPERM},
		{unix.F_SETPIPE_SZ, all | tool.Exec, retAllow},
		{unix.F_GETPIPE_SZ, 0, retAllow},
		{unix.F_GETFL, 0, retAllow},
	} {
		if got := verdict(t, c.caps, nativeArch, unix.SYS_FCNTL, 3, c.cmd); got != c.want {
			t.Errorf("fcntl(3, %d) with %v: %#x, want %#x", c.cmd, c.caps, got, c.want)
		}
	}
}

// TestFilterVerdictsProtocols: a tool with network makes sockets of
// IPv4 and IPv6 of the protocols built into the kernel only.
func TestFilterVerdictsProtocols(t *testing.T) {
	t.Parallel()
	net := tool.Network
	for _, c := range []struct {
		family, typ, proto uint64
		caps               tool.Capability
		want               uint32
	}{
		{unix.AF_INET, unix.SOCK_STREAM, 0, net, retAllow},
		{unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_TCP, net, retAllow},
		{unix.AF_INET6, unix.SOCK_STREAM | unix.SOCK_CLOEXEC, unix.IPPROTO_MPTCP, net, retAllow},
		{unix.AF_INET, unix.SOCK_DGRAM, unix.IPPROTO_UDP, net, retAllow},
		{unix.AF_INET, unix.SOCK_DGRAM, unix.IPPROTO_ICMP, net, retAllow},
		{unix.AF_INET6, unix.SOCK_DGRAM, unix.IPPROTO_ICMPV6, net | tool.Exec, retAllow},
		{unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_SCTP, net, retEPERM},
		{unix.AF_INET6, unix.SOCK_SEQPACKET, unix.IPPROTO_SCTP, net | tool.Exec, retEPERM},
		{unix.AF_INET, unix.SOCK_DCCP, unix.IPPROTO_DCCP, net, retEPERM},
		{unix.AF_INET6, unix.SOCK_DGRAM, unix.IPPROTO_L2TP, net, retEPERM},
		{unix.AF_INET, unix.SOCK_DGRAM, unix.IPPROTO_UDPLITE, net, retEPERM},
		// The high half of the protocol is not the kernel's int.
		{unix.AF_INET, unix.SOCK_STREAM, 1<<32 | unix.IPPROTO_TCP, net, retAllow},
		{unix.AF_INET, unix.SOCK_STREAM, 1<<32 | unix.IPPROTO_SCTP, net, retEPERM},
		{unix.AF_INET, unix.SOCK_STREAM, 0, 0, retEPERM},
	} {
		if got := verdict(t, c.caps, nativeArch, unix.SYS_SOCKET, c.family, c.typ, c.proto); got != c.want {
			t.Errorf("socket(%d, %#x, %d) with %v: %#x, want %#x", c.family, c.typ, c.proto, c.caps, got, c.want)
		}
	}
}
