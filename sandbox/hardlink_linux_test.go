//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoHardLinkIntoTheWorkspace: a hard link in the workspace to a
// file outside it would be written through as a file of the workspace.
// A tool with read_files and write_files linked a file of another
// directory into its workspace: Landlock refuses a link that would give
// the file rights it has not (EXDEV), in namespaces and without. Held;
// kept as a regression test.
func TestNoHardLinkIntoTheWorkspace(t *testing.T) {
	t.Parallel()
	needLandlock(t, 2)
	for _, noNS := range []bool{false, true} {
		d := newDirs(t)
		src := filepath.Join(d.other, "f")
		if err := os.WriteFile(src, []byte("orig"), 0o644); err != nil {
			t.Fatal(err)
		}
		p := newPool(t, d, func(cfg *Config) { cfg.NoNamespaces = noNS })
		got, err := call(t, p, "r12_link", tool.ReadFiles|tool.WriteFiles|tool.Unsafe, r9Args{Path: src + "|" + filepath.Join(d.work, "l")})
		wantErrno(t, fmt.Sprint("a link into the workspace, without namespaces ", noNS), err, "EXDEV", "EACCES", "EPERM")
		if b, _ := os.ReadFile(src); string(b) != "orig" {
			t.Errorf("without namespaces %v: %q, %v: the file outside the workspace now holds %q", noNS, got, err, b)
		}
	}
}
