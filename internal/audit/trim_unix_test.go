//go:build unix

package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestTrimCacheLinks checks that a trim follows no link: a link named as
// a file of the cache, old itself, is kept with what it points to; and a
// trim.txt that is a link, to a file, to a device or a fifo, is replaced
// by a mark of its own, not written through nor read to its end.
func TestTrimCacheLinks(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	old := now.Add(-2 * trimAge)

	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "target")
	touch(t, target, old)
	link := filepath.Join(dir, "types-"+cacheKey('a')+".bin")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	// The link's own time, which is what the trim reads of it.
	if err := unix.Lutimes(link, []unix.Timeval{unix.NsecToTimeval(old.UnixNano()), unix.NsecToTimeval(old.UnixNano())}); err != nil {
		t.Fatal(err)
	}
	if err := trimCache(dir, now); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{link, target} {
		if _, err := os.Lstat(f); err != nil {
			t.Errorf("the trim removed %s: %v", f, err)
		}
	}

	for name, make := range map[string]func(mark string) error{
		"a link to a file": func(mark string) error {
			return os.Symlink(target, mark)
		},
		"a link to a device": func(mark string) error {
			return os.Symlink("/dev/zero", mark)
		},
		"a fifo": func(mark string) error {
			return unix.Mkfifo(mark, 0o600)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := make(filepath.Join(dir, trimFile)); err != nil {
				t.Fatal(err)
			}
			stale := filepath.Join(dir, "std-"+cacheKey('b')+".txt")
			touch(t, stale, old)
			before, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if err := trimCache(dir, now); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(stale); !os.IsNotExist(err) {
				t.Errorf("the trim kept %s: %v", stale, err)
			}
			checkMark(t, dir, now)
			if after, err := os.ReadFile(target); err != nil || string(after) != string(before) {
				t.Errorf("the link's target holds %q (%v), want %q", after, err, before)
			}
		})
	}
}

// TestReadSealedFifo checks that a fifo where a file of the cache goes is
// refused at once, not waited on for a writer.
func TestReadSealedFifo(t *testing.T) {
	dir := t.TempDir()
	for _, file := range []string{filepath.Join(dir, "std-"+cacheKey('a')+".txt"), filepath.Join(dir, trimFile)} {
		if err := unix.Mkfifo(file, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := readSealed(filepath.Join(dir, "std-"+cacheKey('a')+".txt"), "head"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("readSealed of a fifo: %v, want it refused as not a regular file", err)
	}
	if _, _, err := readStart(filepath.Join(dir, trimFile), 64); err == nil {
		t.Error("readStart of a fifo: no error")
	}
}
