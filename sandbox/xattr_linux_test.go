//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNoExtendedAttributesWithoutReadFiles: a file's extended
// attributes are read by path (getxattr, listxattr), where Landlock
// checks nothing, and the user's hold what the file's content does not
// say: the address a browser downloaded it from (user.xdg.origin.url),
// a checksum, a tag. A tool with no capability read them off a file
// outside its workspace.
func TestNoExtendedAttributesWithoutReadFiles(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	path := filepath.Join(d.other, "download.pdf")
	if err := os.WriteFile(path, []byte("%PDF"), 0o644); err != nil {
		t.Fatal(err)
	}
	const url = "https://bank.example/statement?account=1234"
	if err := unix.Setxattr(path, "user.xdg.origin.url", []byte(url), 0); err != nil {
		t.Skipf("no user extended attributes here: %v", err)
	}
	for _, noNS := range []bool{false, true} {
		p := newPool(t, d, func(cfg *Config) { cfg.NoNamespaces = noNS })
		for _, caps := range []tool.Capability{tool.Unsafe, tool.Network | tool.Env | tool.Unsafe, tool.Exec | tool.WriteFiles | tool.Network | tool.Env | tool.Unsafe} {
			got, err := call(t, p, "r12_xattr#"+caps.String(), caps, r9Args{Path: path})
			wantErrno(t, fmt.Sprintf("listxattr, %s, without namespaces %v", caps, noNS), err, "EOPNOTSUPP")
			if err == nil {
				t.Errorf("without namespaces %v, %s: a file's attributes read: %s", noNS, caps, got)
			}
		}
		// With read_files, they are read as its content is.
		if got, err := call(t, p, "r12_xattr#read", tool.ReadFiles|tool.Unsafe, r9Args{Path: path}); err != nil || !strings.Contains(got, url) {
			t.Errorf("without namespaces %v, read_files: %q, %v", noNS, got, err)
		}
	}
}
