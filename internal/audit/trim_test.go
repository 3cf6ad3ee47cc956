package audit

import (
	"context"
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
// regular files unused for more than trimAge and usedInterval, not those
// used at it or within it, nor other names; and that a trim within
// trimInterval of the last one does nothing.
func TestTrimCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	limit := now.Add(-trimAge - usedInterval)
	old := limit.Add(-time.Minute)
	for name, at := range map[string]time.Time{
		"types-" + cacheKey('a') + ".bin":                  old,                    // removed
		"std-" + cacheKey('b') + ".txt":                    old,                    // removed
		"types-" + cacheKey('c') + ".bin.123.tmp":          old,                    // removed: a write cut short
		trimFile + ".456.tmp":                              old,                    // removed: a mark cut short
		"types-" + cacheKey('d') + ".bin":                  limit,                  // at the age: kept
		"types-" + cacheKey('e') + ".bin":                  limit.Add(time.Minute), // kept
		"std-" + cacheKey('f') + ".txt":                    now,                    // kept
		"notes.txt":                                        old,                    // not the cache's
		"types-short.bin":                                  old,                    // no key
		"types-" + strings.ToUpper(cacheKey('a')) + ".bin": old,                    // no key of ours
		"std-" + cacheKey('a') + ".bin":                    old,                    // a summary is .txt
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
		"types-" + cacheKey('d') + ".bin",
		"types-" + cacheKey('e') + ".bin",
		"types-short.bin",
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, names(t, dir)); diff != "" {
		t.Errorf("the cache after a trim (-want +got):\n%s", diff)
	}
	checkMark(t, dir, now)

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

// checkMark checks that dir's trim.txt is a regular file that holds now.
func checkMark(t *testing.T, dir string, now time.Time) {
	t.Helper()
	mark := filepath.Join(dir, trimFile)
	info, err := os.Lstat(mark)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Mode().IsRegular() {
		t.Fatalf("%s is %v, want a regular file", mark, info.Mode())
	}
	b, err := os.ReadFile(mark)
	if err != nil || string(b) != strconv.FormatInt(now.Unix(), 10)+"\n" {
		t.Errorf("%s: %q, %v; want %d", trimFile, b, err, now.Unix())
	}
}

// TestTrimCacheMark checks that a mark in the future, or one that is not
// a time, does not stop a trim, and that the mark is then written again.
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
			touch(t, stale, now.Add(-2*trimAge))
			if err := os.WriteFile(filepath.Join(dir, trimFile), []byte(mark), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := trimCache(dir, now); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(stale); !os.IsNotExist(err) {
				t.Errorf("with the mark %q, the trim kept %s: %v", mark, stale, err)
			}
			checkMark(t, dir, now)
		})
	}
}

// TestCacheFileName checks the names a trim may remove, among them those
// os.CreateTemp gives the temporary files of writeSealed and writeMark.
func TestCacheFileName(t *testing.T) {
	k := cacheKey('0')
	for name, want := range map[string]bool{
		"types-" + k + ".bin":               true,
		"std-" + k + ".txt":                 true,
		"types-" + k + ".bin.1234.tmp":      true,
		"std-" + k + ".txt.1234.tmp":        true,
		trimFile + ".1234.tmp":              true,
		trimFile:                            false, // the mark itself
		"types-" + k[1:] + ".bin":           false, // 63 digits
		"types-" + k + "0.bin":              false, // 65
		"types-" + k[1:] + "g.bin":          false,
		"types-" + k + ".txt":               false,
		"std-" + k + ".bin":                 false,
		"types-" + k + ".bin.tmp":           false, // not a temporary name of writeSealed's
		"types-" + k + ".tmp":               false,
		"types-.bin":                        false,
		"go.mod":                            false,
		"xtypes-" + k + ".bin":              false,
		"types-" + k + ".bin.1234.tmp.keep": false,
		"notes.1234.tmp":                    false,
	} {
		if got := cacheFileName(name); got != want {
			t.Errorf("cacheFileName(%q) = %v, want %v", name, got, want)
		}
	}
	dir := t.TempDir()
	for _, base := range []string{"types-" + k + ".bin", "std-" + k + ".txt", trimFile} {
		for range 20 {
			f, err := os.CreateTemp(dir, base+tempPattern)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
			if name := filepath.Base(f.Name()); !cacheFileName(name) {
				t.Errorf("cacheFileName(%q) = false, a temporary file of %s", name, base)
			}
		}
	}
}

// TestMarkUsed checks that a file used is marked used now, unless its
// time is within usedInterval of now, before or after it.
func TestMarkUsed(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		age  time.Duration // before now; negative, after
		want time.Time
	}{
		{usedInterval + time.Second, now},
		{usedInterval, now.Add(-usedInterval)},
		{usedInterval - time.Second, now.Add(-usedInterval + time.Second)},
		{0, now},
		{-usedInterval + time.Second, now.Add(usedInterval - time.Second)},
		{-usedInterval, now.Add(usedInterval)},
		{-usedInterval - time.Second, now},
		{-365 * 24 * time.Hour, now}, // a clock set back
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

// TestCacheTrimmedOnWrite checks the wiring: a file the cache answers
// with is marked used, and making types from source or building a
// summary trims the cache.
func TestCacheTrimmedOnWrite(t *testing.T) {
	ctx := context.Background()
	stale := func(dir string) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "types-"+cacheKey('f')+".bin")
		touch(t, f, time.Now().Add(-2*trimAge))
		return f
	}
	gone := func(what, file string) {
		t.Helper()
		if _, err := os.Stat(file); !os.IsNotExist(err) {
			t.Errorf("%s kept %s, unused for %v: %v", what, filepath.Base(file), 2*trimAge, err)
		}
	}

	dir := t.TempDir()
	old := stale(dir)
	if _, err := fromSource(ctx, ".", hostEnv(), nil, []string{"unicode/utf8"}, nil, dir); err != nil {
		t.Fatal(err)
	}
	gone("types made from source", old)
	made, err := filepath.Glob(filepath.Join(dir, "types-*.bin"))
	if err != nil || len(made) != 1 {
		t.Fatalf("the cache holds %v (%v), want the types of unicode/utf8", made, err)
	}
	earlier := time.Now().Add(-2 * usedInterval)
	if err := os.Chtimes(made[0], earlier, earlier); err != nil {
		t.Fatal(err)
	}
	if _, err := fromSource(ctx, ".", hostEnv(), nil, []string{"unicode/utf8"}, nil, dir); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(made[0]); err != nil || !info.ModTime().After(earlier.Add(usedInterval)) {
		t.Errorf("the types read from the cache, last used at %v, are modified at %v (%v)", earlier, info.ModTime(), err)
	}

	c, _ := countingCache(t, testSummary())
	old = stale(c.dir)
	if _, err := c.get(ctx); err != nil {
		t.Fatal(err)
	}
	gone("a summary built", old)
}

// TestTrimCacheUnmarked checks that a mark that cannot be written (here
// trim.txt is a directory, which no rename replaces) does not stop the
// trim, and is the error it returns.
func TestTrimCacheUnmarked(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, trimFile), 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "types-"+cacheKey('a')+".bin")
	touch(t, stale, now.Add(-2*trimAge))
	err := trimCache(dir, now)
	if err == nil || !strings.Contains(err.Error(), "mark") {
		t.Errorf("trimCache with trim.txt a directory: %v, want an error about the mark", err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the trim kept %s: %v", stale, err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, trimFile+".*.tmp")); len(tmp) > 0 {
		t.Errorf("the mark's temporary files are left: %v", tmp)
	}
}

// TestReadSealedChecks checks what readSealed refuses leaves the file's
// time alone (only a file it answers with is marked used), and its
// bound: a file of the bound is read, one past it refused.
func TestReadSealedChecks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "types-"+cacheKey('a')+".bin")
	body := []byte("body")
	if err := writeSealed(dir, file, "head", body); err != nil {
		t.Fatal(err)
	}
	earlier := time.Now().Add(-2 * usedInterval).Truncate(time.Second)
	if err := os.Chtimes(file, earlier, earlier); err != nil {
		t.Fatal(err)
	}
	if _, err := readSealed(file, "another head"); err == nil {
		t.Fatal("read with another head")
	}
	if info, err := os.Stat(file); err != nil || !info.ModTime().Equal(earlier) {
		t.Errorf("a file refused is modified at %v (%v), want %v as before", info.ModTime(), err, earlier)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	size := info.Size()
	for _, c := range []struct {
		max int64
		ok  bool
	}{{size + 1, true}, {size, true}, {size - 1, false}} {
		got, err := readSealedMax(file, "head", c.max)
		if ok := err == nil && string(got) == string(body); ok != c.ok {
			t.Errorf("a file of %d bytes read with a bound of %d: %q, %v; want it read %v", size, c.max, got, err, c.ok)
		}
	}
}
