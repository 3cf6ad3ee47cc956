//go:build !unix

package agentcli

import (
	"path/filepath"
	"testing"
)

// moduleCopyDir returns a new directory to copy the module at root into
// for a build, which then needs -trimpath so that its packages are
// compiled once, not once a run (see the unix version).
func moduleCopyDir(t *testing.T, root string) (dir string, trimpath bool) {
	return filepath.Join(t.TempDir(), "src"), true
}
