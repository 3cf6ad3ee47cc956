//go:build unix

package buildcache

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// locked reports whether the lock of dir is held by an open file other
// than one opened here.
func locked(t *testing.T, dir string) bool {
	t.Helper()
	f, err := os.Open(dir + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	switch {
	case err == nil:
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		return false
	case errors.Is(err, unix.EWOULDBLOCK):
		return true
	}
	t.Fatal(err)
	return false
}

func TestDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	var first string
	t.Run("held", func(t *testing.T) {
		dir, trimpath := Dir(t, "a")
		if trimpath {
			t.Fatal("trimpath with a cache directory")
		}
		first = dir
		if names, err := os.ReadDir(dir); err != nil || len(names) > 0 {
			t.Fatalf("the directory: %v %v, want it empty", names, err)
		}
		if !locked(t, dir) {
			t.Error("the directory is not locked while its test runs")
		}
		other, _ := Dir(t, "b")
		if other == dir {
			t.Errorf("two names have the same directory %s", dir)
		}
		// The same name while it is held: a directory of its own.
		again, trimpath := Dir(t, "a")
		if again == dir || !trimpath {
			t.Errorf("Dir of a held name gave %s, -trimpath %v; want a new directory and -trimpath", again, trimpath)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := os.Stat(first); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the directory after its test: %v, want it removed", err)
	}
	if locked(t, first) {
		t.Error("the directory is still locked after its test")
	}
	// What a test killed mid-way left is removed.
	if err := os.MkdirAll(filepath.Join(first, "left"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("again", func(t *testing.T) {
		dir, _ := Dir(t, "a")
		if dir != first {
			t.Errorf("the second directory of a name is %s, want %s", dir, first)
		}
		if names, err := os.ReadDir(dir); err != nil || len(names) > 0 {
			t.Errorf("the directory: %v %v, want it empty", names, err)
		}
	})
}

// TestHoldRefusesALinkedLock checks that hold does not follow a
// symbolic link planted where its lock goes, nor make a directory.
func TestHoldRefusesALinkedLock(t *testing.T) {
	base := filepath.Join(t.TempDir(), "cache")
	dir, release, err := hold(base, "c")
	if err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir + ".lock"); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target")
	if err := os.Symlink(target, dir+".lock"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := hold(base, "c"); !errors.Is(err, unix.ELOOP) {
		t.Errorf("hold with a link for its lock: %v, want ELOOP", err)
	}
	for _, p := range []string{target, dir} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v, want it not made", p, err)
		}
	}
}

// TestDirFallsBack checks that a cache directory that cannot be had
// gives a new directory and -trimpath, not a failed test.
func TestDirFallsBack(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", file)
	dir, trimpath := Dir(t, "d")
	if !trimpath {
		t.Error("no -trimpath for a new directory")
	}
	if names, err := os.ReadDir(dir); err != nil || len(names) > 0 {
		t.Errorf("the directory: %v %v, want it empty", names, err)
	}
}

// TestHoldRefusesASharedParent checks that hold refuses a parent that
// others can write in, or that is not its user's: they could swap the
// directory for a link while a test copies into it.
func TestHoldRefusesASharedParent(t *testing.T) {
	base := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(base, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o777); err != nil {
		t.Fatal(err)
	}
	if dir, _, err := hold(base, "f"); err == nil {
		t.Errorf("hold made %s in a directory anyone can write in", dir)
	}
	if err := os.Chmod(base, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// Only root can give the parent to another user.
		if err := os.Chown(base, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if dir, _, err := hold(base, "f"); err == nil {
			t.Errorf("hold made %s in another user's directory", dir)
		}
		if err := os.Chown(base, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	names, err := os.ReadDir(base)
	if err != nil || len(names) > 0 {
		t.Errorf("the parent after the refusals: %v %v, want nothing made", names, err)
	}
	// The control: the same parent, its own user's alone.
	_, release, err := hold(base, "f")
	if err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
}
