//go:build linux && (amd64 || arm64)

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestFilterVerdictsInotify: no inotify instance without read_files.
func TestFilterVerdictsInotify(t *testing.T) {
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
