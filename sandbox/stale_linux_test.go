//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// poolToLeaveArg runs the test binary as a program with a pool in the
// directory it is given: once the pool's spare is ready, it prints the
// pool's directory for its workers' temp directories and waits to be
// killed, which leaves that directory behind.
const poolToLeaveArg = "-sandbox-test-pool-to-leave"

func poolToLeave(dir string) int {
	// A guard, not a bound: the test kills the program long before.
	time.AfterFunc(time.Minute, func() { os.Exit(2) })
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, Spares: 1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for p.Spares() == 0 {
		time.Sleep(time.Millisecond)
	}
	fmt.Println(p.tempParent)
	select {}
}

// TestSweepStale: the workers' temp directory of a pool whose program
// was killed, so that it never closed the pool, is removed by the next
// sweep, with what its workers had in it; that of a pool whose program
// lives is not, nor what is not such a directory of this user: a link
// to a directory, a file, another user's directory.
func TestSweepStale(t *testing.T) {
	cmd, line := startPoolProgram(t, poolToLeaveArg)
	live := strings.TrimSpace(line)
	dir := filepath.Dir(live)
	if !strings.HasPrefix(filepath.Base(live), tempPrefix) {
		t.Fatalf("the pool's directory %s is not named %s*", live, tempPrefix)
	}
	if entries, err := os.ReadDir(live); err != nil || len(entries) == 0 {
		t.Fatalf("the live pool's directory holds no worker's: %v, %v", entries, err)
	}

	// What a pool made before pools locked their directories left, with
	// a directory a tool made read-only.
	old := filepath.Join(dir, tempPrefix+"1")
	for _, d := range []string{old, filepath.Join(old, "toolreg-worker-1", "ro")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "secret"), []byte("token"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(old, "toolreg-worker-1", "ro"), 0o500); err != nil {
		t.Fatal(err)
	}
	// Not such directories.
	target := t.TempDir()
	if err := os.WriteFile(filepath.Join(target, "kept"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, tempPrefix+"link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, tempPrefix+"file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	kept := []string{live, link, file, filepath.Join(target, "kept")}
	if os.Geteuid() == 0 {
		others := filepath.Join(dir, tempPrefix+"others")
		if err := os.Mkdir(others, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(others, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, others)
	}

	log := slog.New(slog.DiscardHandler)
	if diff := cmp.Diff([]string{old}, sweepStale(context.Background(), dir, log)); diff != "" {
		t.Errorf("removed while the pool's program runs (-want +got):\n%s", diff)
	}
	for _, p := range kept {
		if !exists(p) {
			t.Errorf("%s was removed", p)
		}
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !exists(live) {
		t.Fatalf("the killed pool's directory %s is gone before the sweep: the test shows nothing", live)
	}
	if diff := cmp.Diff([]string{live}, sweepStale(context.Background(), dir, log)); diff != "" {
		t.Errorf("removed once the pool's program was killed (-want +got):\n%s", diff)
	}
	for _, p := range append([]string{old, live}, kept[1:]...) {
		if want := p != old && p != live; exists(p) != want {
			t.Errorf("%s: exists %v, want %v", p, !want, want)
		}
	}
}

// TestSweepStaleOnlyWhereNoOneRenames: in a directory others may write
// and that is not sticky, another user could rename what the sweep has
// checked; the sweep removes nothing there. Sticky, as /tmp is, it does.
func TestSweepStaleOnlyWhereNoOneRenames(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, tempPrefix+"1")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	for _, c := range []struct {
		mode fs.FileMode
		want []string
	}{
		{0o777, nil},
		{0o757, nil},
		{0o777 | fs.ModeSticky, []string{stale}},
	} {
		if err := os.Chmod(dir, c.mode); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, sweepStale(context.Background(), dir, log)); diff != "" {
			t.Errorf("mode %v (-want +got):\n%s", c.mode, diff)
		}
	}
}

// TestPoolSweeps: a pool removes what a pool ended without Close left
// in its TempDir, Config.sweepAfter after it is made, and keeps its own.
func TestPoolSweeps(t *testing.T) {
	d := newDirs(t)
	stale := filepath.Join(d.temp, tempPrefix+"1")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, func(c *Config) { c.sweepAfter = time.Nanosecond })
	guard := time.Now().Add(10 * time.Second) // a guard, not a bound
	for exists(stale) {
		if time.Now().After(guard) {
			t.Fatalf("%s is still there 10 s after the pool was made", stale)
		}
		time.Sleep(time.Millisecond)
	}
	if !exists(p.tempParent) {
		t.Errorf("the pool removed its own directory %s", p.tempParent)
	}
}
