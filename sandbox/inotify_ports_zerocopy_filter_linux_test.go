//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsInotify: no inotify instance without read_files.
func TestFilterVerdictsInotify(t *testing.T) {
	t.Parallel()
	nrs := append([]uint32{unix.SYS_INOTIFY_INIT1}, archInotifyInit...)
	for _, nr := range nrs {
		for _, c := range []struct {
			caps tool.Capability
			want uint32
		}{
			{0, retEPERM},
			{tool.Exec | tool.WriteFiles | tool.Network | tool.Env, retEPERM},
			{tool.ReadFiles, retAllow},
			{tool.ReadFiles | tool.Exec, retAllow},
		} {
			if got := verdict(t, c.caps, nativeArch, nr, unix.IN_CLOEXEC); got != c.want {
				t.Errorf("system call %d with %v: %#x, want %#x", nr, c.caps, got, c.want)
			}
		}
	}
}

// TestFilterVerdictsReusePort: no socket shares another's port.
func TestFilterVerdictsReusePort(t *testing.T) {
	t.Parallel()
	net := tool.Network
	for _, c := range []struct {
		level, opt uint64
		caps       tool.Capability
		want       uint32
	}{
		{unix.SOL_SOCKET, unix.SO_REUSEPORT, net, retEPERM},
		{unix.SOL_SOCKET, unix.SO_REUSEPORT, net | tool.Exec, retEPERM},
		{unix.SOL_SOCKET, unix.SO_REUSEADDR, net, retAllow},
		{unix.SOL_SOCKET, unix.SO_KEEPALIVE, net | tool.Exec, retAllow},
		{unix.IPPROTO_TCP, unix.SO_REUSEPORT, net, retAllow}, // its number at another level
		{unix.IPPROTO_IPV6, unix.IPV6_V6ONLY, net, retAllow},
	} {
		if got := verdict(t, c.caps, nativeArch, unix.SYS_SETSOCKOPT, 3, c.level, c.opt); got != c.want {
			t.Errorf("setsockopt(3, %d, %d) with %v: %#x, want %#x", c.level, c.opt, c.caps, got, c.want)
		}
	}
}

// TestFilterVerdictsZerocopy: no zerocopy sends.
func TestFilterVerdictsZerocopy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		level, opt uint64
		caps       tool.Capability
		want       uint32
	}{
		{unix.SOL_SOCKET, unix.SO_ZEROCOPY, tool.Network, retEPERM},
		{unix.SOL_SOCKET, unix.SO_ZEROCOPY, tool.Network | tool.Exec, retEPERM},
		{unix.SOL_SOCKET, unix.SO_SNDBUF, tool.Network, retAllow},
		{unix.IPPROTO_IP, unix.SO_ZEROCOPY, tool.Network, retAllow}, // its number at another level
	} {
		if got := verdict(t, c.caps, nativeArch, unix.SYS_SETSOCKOPT, 3, c.level, c.opt); got != c.want {
			t.Errorf("setsockopt(3, %d, %d) with %v: %#x, want %#x", c.level, c.opt, c.caps, got, c.want)
		}
	}
}
