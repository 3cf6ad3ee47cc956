package audit

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// cacheKey is a key of the cache's form: 64 hexadecimal digits, from c.
func cacheKey(c byte) string { return strings.Repeat(string(c), 64) }

// touch writes file, modified at t.
func touch(t *testing.T, file string, at time.Time) {
	t.Helper()
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, at, at); err != nil {
		t.Fatal(err)
	}
}

// names returns the names in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// TestTrimCache checks which files a trim removes: the cache's own
// regular files unused for more than trimAge, not those used at it or
// within it, nor other names, directories or symbolic links; and that a
// trim within trimInterval of the last one does nothing.
func TestTrimCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	old := now.Add(-trimAge - time.Minute)
	outside := filepath.Join(t.TempDir(), "target")
	touch(t, outside, old)
	for name, at := range map[string]time.Time{
		"types-" + cacheKey('a') + ".bin":                  old,                             // removed
		"std-" + cacheKey('b') + ".txt":                    old,                             // removed
		"types-" + cacheKey('c') + ".bin.123.tmp":          old,                             // removed: a write cut short
		"types-" + cacheKey('d') + ".bin":                  now.Add(-trimAge),               // at the age: kept
		"types-" + cacheKey('e') + ".bin":                  now.Add(-trimAge + time.Minute), // kept
		"std-" + cacheKey('f') + ".txt":                    now,                             // kept
		"notes.txt":                                        old,                             // not the cache's
		"types-short.bin":                                  old,                             // no key
		"types-" + strings.ToUpper(cacheKey('a')) + ".bin": old,                             // no key of ours
		"std-" + cacheKey('a') + ".bin":                    old,                             // a summary is .txt
	} {
		touch(t, filepath.Join(dir, name), at)
	}
	sub := filepath.Join(dir, "types-"+cacheKey('7')+".bin")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(sub, old, old); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "types-"+cacheKey('8')+".bin")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}

	if err := trimCache(dir, now); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"notes.txt",
		"std-" + cacheKey('a') + ".bin",
		"std-" + cacheKey('f') + ".txt",
		trimFile,
		"types-" + strings.ToUpper(cacheKey('a')) + ".bin",
		"types-" + cacheKey('7') + ".bin",
		"types-" + cacheKey('8') + ".bin",
		"types-" + cacheKey('d') + ".bin",
		"types-" + cacheKey('e') + ".bin",
		"types-short.bin",
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, names(t, dir)); diff != "" {
		t.Errorf("the cache after a trim (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("the link's target: %v", err)
	}
	mark, err := os.ReadFile(filepath.Join(dir, trimFile))
	if err != nil || string(mark) != strconv.FormatInt(now.Unix(), 10)+"\n" {
		t.Errorf("%s: %q, %v; want %d", trimFile, mark, err, now.Unix())
	}

	// Within a day of the last trim nothing is removed; a day after, the
	// files unused since are.
	stale := filepath.Join(dir, "types-"+cacheKey('9')+".bin")
	touch(t, stale, old)
	if err := trimCache(dir, now.Add(trimInterval-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("a trim %v after the last one removed %s: %v", trimInterval-time.Second, stale, err)
	}
	if err := trimCache(dir, now.Add(trimInterval)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a trim %v after the last one kept %s: %v", trimInterval, stale, err)
	}
}

// TestTrimCacheMark checks that a mark in the future, or one that is not
// a time, does not stop a trim.
func TestTrimCacheMark(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for name, mark := range map[string]string{
		"in the future": strconv.FormatInt(now.Add(time.Hour).Unix(), 10) + "\n",
		"not a time":    "yesterday\n",
		"empty":         "",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			stale := filepath.Join(dir, "types-"+cacheKey('a')+".bin")
			touch(t, stale, now.Add(-trimAge-time.Hour))
			if err := os.WriteFile(filepath.Join(dir, trimFile), []byte(mark), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := trimCache(dir, now); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(stale); !os.IsNotExist(err) {
				t.Errorf("with the mark %q, the trim kept %s: %v", mark, stale, err)
			}
		})
	}
}

// TestCacheFileName checks the names a trim may remove.
func TestCacheFileName(t *testing.T) {
	k := cacheKey('0')
	for name, want := range map[string]bool{
		"types-" + k + ".bin":               true,
		"std-" + k + ".txt":                 true,
		"types-" + k + ".bin.1234.tmp":      true,
		"std-" + k + ".txt.1234.tmp":        true,
		"types-" + k[1:] + ".bin":           false, // 63 digits
		"types-" + k + "0.bin":              false, // 65
		"types-" + k[1:] + "g.bin":          false,
		"types-" + k + ".txt":               false,
		"std-" + k + ".bin":                 false,
		"types-" + k + ".bin.tmp":           false, // not a temporary name of writeSealed's
		"types-" + k + ".tmp":               false,
		"types-.bin":                        false,
		"go.mod":                            false,
		trimFile:                            false,
		"xtypes-" + k + ".bin":              false,
		"types-" + k + ".bin.1234.tmp.keep": false,
	} {
		if got := cacheFileName(name); got != want {
			t.Errorf("cacheFileName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestMarkUsed checks that a file used is marked used now, unless it was
// marked within usedInterval.
func TestMarkUsed(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		age  time.Duration
		want time.Time
	}{
		{usedInterval + time.Second, now},
		{usedInterval, now.Add(-usedInterval)},
		{usedInterval - time.Second, now.Add(-usedInterval + time.Second)},
	} {
		file := filepath.Join(t.TempDir(), "f")
		touch(t, file, now.Add(-c.age))
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		markUsed(file, info, now)
		if info, err = os.Stat(file); err != nil || !info.ModTime().Equal(c.want) {
			t.Errorf("used %v after its last mark: modified at %v (%v), want %v", c.age, info.ModTime(), err, c.want)
		}
	}
}

// TestSealedTrims checks the wiring: a file of the cache read is marked
// used, and a write trims the cache.
func TestSealedTrims(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "types-"+cacheKey('a')+".bin")
	if err := writeSealed(dir, file, "head", []byte("body")); err != nil {
		t.Fatal(err)
	}
	earlier := time.Now().Add(-2 * usedInterval)
	if err := os.Chtimes(file, earlier, earlier); err != nil {
		t.Fatal(err)
	}
	if _, err := readSealed(file, "head"); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(file); err != nil || !info.ModTime().After(earlier.Add(usedInterval)) {
		t.Errorf("a file read, last used at %v, is modified at %v (%v)", earlier, info.ModTime(), err)
	}

	stale := filepath.Join(dir, "types-"+cacheKey('b')+".bin")
	touch(t, stale, time.Now().Add(-2*trimAge))
	if err := os.Remove(filepath.Join(dir, trimFile)); err != nil {
		t.Fatal(err)
	}
	if err := writeSealed(dir, filepath.Join(dir, "types-"+cacheKey('c')+".bin"), "head", []byte("body")); err != nil {
		t.Fatal(err)
	}
	want := []string{"trim.txt", "types-" + cacheKey('a') + ".bin", "types-" + cacheKey('c') + ".bin"}
	if diff := cmp.Diff(want, names(t, dir)); diff != "" {
		t.Errorf("the cache after a write (-want +got):\n%s", diff)
	}
}
