//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsAbstract: a tool with network makes no unix pair
// without exec, and with exec binds the lengths of the internet's and
// netlink's addresses (and larger ones) only, on the arguments the
// kernel reads.
func TestFilterVerdictsAbstract(t *testing.T) {
	t.Parallel()
	net, netExec := tool.Network, tool.Network|tool.Exec
	for _, c := range []struct {
		name string
		nr   uint32
		args []uint64
		caps tool.Capability
		want uint32
	}{
		{"socketpair unix stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, net, retEPERM},
		{"socketpair unix stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, netExec, retAllow},
		{"socketpair unix stream", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, tool.Exec, retAllow},
		{"bind IPv4", unix.SYS_BIND, []uint64{3, 0, unix.SizeofSockaddrInet4}, net, retAllow},
		{"bind IPv4", unix.SYS_BIND, []uint64{3, 0, unix.SizeofSockaddrInet4}, netExec, retAllow},
		{"bind IPv6", unix.SYS_BIND, []uint64{3, 0, unix.SizeofSockaddrInet6}, netExec, retAllow},
		{"bind netlink", unix.SYS_BIND, []uint64{3, 0, unix.SizeofSockaddrNetlink}, netExec, retAllow},
		{"bind sockaddr_storage", unix.SYS_BIND, []uint64{3, 0, 128}, netExec, retAllow},
		{"bind unix unnamed", unix.SYS_BIND, []uint64{3, 0, 2}, netExec, retAllow},
		{"bind unix abstract", unix.SYS_BIND, []uint64{3, 0, 21}, netExec, retEPERM},
		{"bind unix abstract", unix.SYS_BIND, []uint64{3, 0, 110}, netExec, retEPERM},
		{"bind unix abstract", unix.SYS_BIND, []uint64{3, 0, 3}, netExec, retEPERM},
		{"bind unix abstract", unix.SYS_BIND, []uint64{3, 0, 21}, net, retAllow}, // no unix socket to bind
		{"bind", unix.SYS_BIND, []uint64{3, 0, unix.SizeofSockaddrInet4}, tool.Exec, retEPERM},
	} {
		if got := verdict(t, c.caps, nativeArch, c.nr, c.args...); got != c.want {
			t.Errorf("%s (%v) with %v: %#x, want %#x", c.name, c.args, c.caps, got, c.want)
		}
	}
}
