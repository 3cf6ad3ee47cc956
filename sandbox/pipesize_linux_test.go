//go:build linux

package sandbox

import (
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoPipesGrownWithoutExec: what a pipe holds is kernel memory the
// data limit does not count, charged to the user's
// fs.pipe-user-pages-soft, past which every pipe any program of the
// user makes is of one page. A tool with no capability held 71 MiB in
// 1,014 pipes grown to 1 MiB under a 64 MiB limit. Without exec, no
// pipe grows past the kernel's 64 KiB; the programs of a tool with exec
// may grow theirs.
func TestNoPipesGrownWithoutExec(t *testing.T) {
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	const mib = 1 << 20
	for _, caps := range []tool.Capability{0, tool.ReadFiles | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r10_pipesize#"+caps.String(), caps, r9Args{N: mib})
		wantErrno(t, "a pipe grown to 1 MiB, "+caps.String(), err, "EPERM")
		if err == nil {
			t.Errorf("%s: the pipe holds %s bytes", caps, got)
		}
		// The positive control: os.Pipe, written and read, of the
		// kernel's size.
		if got, err := call(t, p, "r10_pipe#"+caps.String(), caps, r9Args{}); err != nil || got != "through 65536" {
			t.Errorf("%s: an honest pipe: %q, %v; want %q", caps, got, err, "through 65536")
		}
	}
	caps := tool.Exec | tool.Unsafe
	if got, err := call(t, p, "r10_pipesize#exec", caps, r9Args{N: mib}); err != nil || got != "1048576" {
		t.Errorf("with exec, a pipe grown to 1 MiB: %q, %v", got, err)
	}
}
