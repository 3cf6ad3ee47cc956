//go:build unix

package buildcache

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Dir returns an empty directory for a module a test writes and builds,
// the same one each run for the same name, held with a lock until the
// test ends and removed then: the build cache's keys for a module's
// packages hold its directory, so a new one each run would compile them
// each run.
//
// Where no such directory can be had (no cache directory, one that cannot
// be written or that others can, a link where the lock goes, the
// directory held by another test, of this process or another), Dir
// returns a new temporary one and trimpath true: a build there needs -trimpath, which leaves the
// directory out of the keys (and of every other package's, which it then
// compiles once more).
func Dir(t testing.TB, name string) (dir string, trimpath bool) {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Logf("no cache directory for a module to build (%v): a new directory, with -trimpath", err)
		return t.TempDir(), true
	}
	dir, release, err := hold(filepath.Join(cache, "toolreg-test"), name)
	if err != nil {
		t.Logf("%v: a new directory, with -trimpath", err)
		return t.TempDir(), true
	}
	t.Cleanup(func() {
		if err := release(); err != nil {
			t.Error(err)
		}
	})
	return dir, false
}

// hold makes the directory of name in base, empty, and holds its lock;
// release removes the directory and lets the lock go.
func hold(base, name string) (dir string, release func() error, err error) {
	if err := os.MkdirAll(base, 0o700); err != nil {
		return "", nil, fmt.Errorf("a directory to build in: %w", err)
	}
	// Whoever else can write in base could swap the directory for a
	// link while a test copies into it.
	if fi, err := os.Lstat(base); err != nil {
		return "", nil, fmt.Errorf("a directory to build in: %w", err)
	} else if st, ok := fi.Sys().(*syscall.Stat_t); !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return "", nil, fmt.Errorf("%s is not a directory of this user's alone (%v)", base, fi.Mode())
	}
	sum := sha256.Sum256([]byte(name))
	dir = filepath.Join(base, fmt.Sprintf("%x", sum[:8]))
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("open the lock of a directory to build in: %w", err)
	}
	// Another test may be building there: it gets a directory of its
	// own, not a wait. The lock is held until release, and let go if
	// the process dies.
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		lock.Close()
		return "", nil, fmt.Errorf("lock %s: %w", lock.Name(), err)
	}
	err = os.RemoveAll(dir)
	if err == nil {
		err = os.Mkdir(dir, 0o700)
	}
	if err != nil {
		lock.Close()
		return "", nil, fmt.Errorf("make %s: %w", dir, err)
	}
	return dir, func() error {
		defer lock.Close()
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("remove %s: %w", dir, err)
		}
		return nil
	}, nil
}
