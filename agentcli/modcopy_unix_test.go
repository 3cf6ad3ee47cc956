//go:build unix

package agentcli

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// moduleCopyDir returns an empty directory to copy the module at root
// into for a build, and whether the build needs -trimpath. The directory
// is the same from run to run for the same root, held under a lock while
// the test runs and removed after: the build cache's keys for the copy's
// packages hold their directory, so a new one each run would compile them
// each run. Without -trimpath, the build also finds the other packages
// as go test compiled them (see buildFlags).
func moduleCopyDir(t *testing.T, root string) (dir string, trimpath bool) {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Logf("no cache directory for a copy of the module (%v): a new directory, with -trimpath", err)
		return filepath.Join(t.TempDir(), "src"), true
	}
	base := filepath.Join(cache, "toolreg-test")
	if err := os.MkdirAll(base, 0o700); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(root))
	dir = filepath.Join(base, fmt.Sprintf("agent-%x", sum[:8]))
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	// Another go test of the same module may be building there: the
	// lock is held until this test ends, and let go if it dies.
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		t.Fatalf("lock %s: %v", lock.Name(), err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("remove the copy of the module: %v", err)
		}
	})
	return dir, false
}
