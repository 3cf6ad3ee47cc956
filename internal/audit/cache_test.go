package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
)

// testSummary is a summary of this release and platform: the one that
// ships, under this host's header.
func testSummary() string {
	_, body, _ := strings.Cut(stdSummaryText, "\n")
	return "# " + platform() + "\n" + body
}

// countingCache is a cache in a temporary directory whose builds are
// counted.
func countingCache(t *testing.T, text string) (*summaryCache, *int) {
	t.Helper()
	n := new(int)
	var mu sync.Mutex
	return &summaryCache{dir: filepath.Join(t.TempDir(), "audit"), key: summaryKey(), build: func(context.Context) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		*n++
		return text, nil
	}}, n
}

// TestSummaryCache checks that a built summary is cached and read back,
// and that a cached file that fails a check (changed, cut short, of
// another key or platform, without the sentinels, writable by others) is
// not used but built again.
func TestSummaryCache(t *testing.T) {
	ctx := context.Background()
	text := testSummary()
	want, err := parseSummary(text)
	if err != nil {
		t.Fatal(err)
	}
	c, builds := countingCache(t, text)
	for i := range 2 {
		s, err := c.get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.lines, s.lines); diff != "" {
			t.Fatalf("get %d: the summary differs (-built +got):\n%s", i, diff)
		}
	}
	if *builds != 1 {
		t.Fatalf("two gets built the summary %d times, want once", *builds)
	}
	info, err := os.Stat(c.path())
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("the cached file's mode is %v, want 0600", info.Mode().Perm())
	}
	good, err := os.ReadFile(c.path())
	if err != nil {
		t.Fatal(err)
	}
	head, rest, _ := strings.Cut(string(good), "\n")
	_, body, _ := strings.Cut(rest, "\n")
	// A summary in which os/exec reaches nothing: what a poisoned cache
	// would hold.
	hidden := strings.Replace(body, "(*os/exec.Cmd).Start\t1\t", "(*os/exec.Cmd).Start\t0\t", 1)
	if hidden == body {
		t.Fatal("the summary has no line for (*os/exec.Cmd).Start")
	}
	rehash := func(head, body string) string {
		c := &summaryCache{dir: t.TempDir(), key: strings.TrimPrefix(head, summaryFormat+" ")}
		if err := c.write(body); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(c.path())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name     string
		contents string
		mode     os.FileMode
	}{
		{"changed", strings.Replace(string(good), "\t1\t", "\t0\t", 1), 0o600},
		{"cut short", string(good[:len(good)/2]), 0o600},
		{"empty", "", 0o600},
		{"another key", rehash(summaryFormat+" "+strings.Repeat("0", 64), body), 0o600},
		{"another format", strings.Replace(string(good), summaryFormat, "toolreg std summary 0", 1), 0o600},
		{"another platform", rehash(head, strings.Replace(body, platform(), "go1.0 plan9/386", 1)), 0o600},
		{"sentinel hidden, checksum right", rehash(head, hidden), 0o600},
		{"no sentinel at all", rehash(head, "# "+platform()+"\n"), 0o600},
		{"writable by others", string(good), 0o666},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mode&0o022 != 0 && runtime.GOOS == "windows" {
				t.Skip("file modes")
			}
			c, builds := countingCache(t, text)
			if err := os.MkdirAll(c.dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.path(), []byte(tc.contents), tc.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(c.path(), tc.mode); err != nil { // past the umask
				t.Fatal(err)
			}
			if _, err := c.read(); err == nil {
				t.Fatal("read accepted the file")
			} else {
				t.Log(err)
			}
			s, err := c.get(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if *builds != 1 {
				t.Errorf("built %d times, want once", *builds)
			}
			if got, _ := s.caps("(*os/exec.Cmd).Start"); got != tool.Exec {
				t.Errorf("(*os/exec.Cmd).Start reaches %s, want exec", got)
			}
			// The summary built again replaced the file.
			if _, err := c.read(); err != nil {
				t.Errorf("after the build, the cache is not read: %v", err)
			}
		})
	}
}

// TestSummaryCacheNoDir checks that a summary is built, not lost, when the
// cache cannot be written, and that the cache keeps no summary that fails
// the sentinels.
func TestSummaryCacheNoDir(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c, builds := countingCache(t, testSummary())
	c.dir = filepath.Join(file, "audit") // under a file: not a directory
	for range 2 {
		if _, err := c.get(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if *builds != 2 {
		t.Errorf("built %d times, want twice (nothing to cache in)", *builds)
	}
	c, builds = countingCache(t, "# "+platform()+"\n")
	for range 2 {
		if _, err := c.get(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(c.path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a summary without the sentinels was cached (%v)", err)
	}
	if *builds != 2 {
		t.Errorf("built %d times, want twice", *builds)
	}
}

// TestSummaryKey checks that the key changes with what the summary is a
// function of.
func TestSummaryKey(t *testing.T) {
	k := summaryKey()
	if k != summaryKey() {
		t.Fatal("the key is not stable")
	}
	t.Setenv("GOEXPERIMENT", "nosuchexperiment")
	if summaryKey() == k {
		t.Error("the key does not depend on GOEXPERIMENT")
	}
}

// TestCacheDir checks TOOLREG_CACHE.
func TestCacheDir(t *testing.T) {
	t.Setenv("TOOLREG_CACHE", "off")
	if d := cacheDir(); d != "" {
		t.Errorf("TOOLREG_CACHE=off: the cache is %q, want none", d)
	}
	dir := t.TempDir()
	t.Setenv("TOOLREG_CACHE", dir)
	if d, want := cacheDir(), filepath.Join(dir, "audit"); d != want {
		t.Errorf("the cache is %q, want %q", d, want)
	}
}
