//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsSocketTypes: a tool with network makes stream,
// datagram and raw sockets of IPv4, IPv6 and netlink, no socket of
// another type. The kernel makes an IPv4 socket of type SOCK_PACKET a
// packet socket (__sock_create), which loads af_packet where it is a
// module not loaded, whatever the protocol; one of a type IPv4 has no
// protocol for (SOCK_SEQPACKET, SOCK_DCCP) has the kernel look for a
// module, running modprobe as root, on each call.
func TestFilterVerdictsSocketTypes(t *testing.T) {
	t.Parallel()
	net := tool.Network
	for _, c := range []struct {
		family, typ, proto uint64
		caps               tool.Capability
		want               uint32
	}{
		{unix.AF_INET, unix.SOCK_PACKET, 0, net, retEPERM},
		{unix.AF_INET, unix.SOCK_PACKET | unix.SOCK_CLOEXEC, unix.IPPROTO_UDP, net | tool.Exec, retEPERM},
		{unix.AF_INET, unix.SOCK_SEQPACKET, 0, net, retEPERM},
		{unix.AF_INET6, unix.SOCK_DCCP, 0, net, retEPERM},
		{unix.AF_INET, unix.SOCK_RDM, unix.IPPROTO_TCP, net, retEPERM},
		{unix.AF_NETLINK, unix.SOCK_SEQPACKET, unix.NETLINK_ROUTE, net, retEPERM},
		// What Go's net makes: stream and datagram sockets, raw ones
		// for IPConn (which the kernel refuses without CAP_NET_RAW), and
		// netlink's route sockets.
		{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC, 0, net, retAllow},
		{unix.AF_INET6, unix.SOCK_DGRAM | unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC, 0, net, retAllow},
		{unix.AF_INET, unix.SOCK_RAW | unix.SOCK_CLOEXEC, unix.IPPROTO_ICMP, net, retAllow},
		{unix.AF_NETLINK, unix.SOCK_RAW | unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE, net, retAllow},
		{unix.AF_NETLINK, unix.SOCK_DGRAM, unix.NETLINK_ROUTE, net, retAllow},
	} {
		if got := verdict(t, c.caps, nativeArch, unix.SYS_SOCKET, c.family, c.typ, c.proto); got != c.want {
			t.Errorf("socket(%d, %#x, %d) with %v: %#x, want %#x", c.family, c.typ, c.proto, c.caps, got, c.want)
		}
	}
}
