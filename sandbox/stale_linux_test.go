//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
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
// to a directory, a file, a directory of another name (one an earlier
// version's pool, which held no lock, made among them), one others may
// write, another user's.
func TestSweepStale(t *testing.T) {
	t.Parallel()
	cmd, line := startPoolProgram(t, poolToLeaveArg)
	live := strings.TrimSpace(line)
	dir := filepath.Dir(live)
	if !strings.HasPrefix(filepath.Base(live), tempPrefix) {
		t.Fatalf("the pool's directory %s is not named %s*", live, tempPrefix)
	}
	if entries, err := os.ReadDir(live); err != nil || len(entries) == 0 {
		t.Fatalf("the live pool's directory holds no worker's: %v, %v", entries, err)
	}

	// What a pool killed before its Close left, with a directory a tool
	// made read-only.
	dead := filepath.Join(dir, tempPrefix+"1")
	for _, d := range []string{dead, filepath.Join(dead, "toolreg-worker-1", "ro")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "secret"), []byte("token"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dead, "toolreg-worker-1", "ro"), 0o500); err != nil {
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
	for _, d := range []struct {
		name string
		mode fs.FileMode
	}{{"toolreg-workers-1", 0o700}, {"toolreg-other", 0o700}, {tempPrefix + "shared", 0o770}} {
		p := filepath.Join(dir, d.name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, d.mode); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, p)
	}
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
	if diff := cmp.Diff([]string{dead}, sweepStale(context.Background(), dir, log, everyLocal)); diff != "" {
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
	if diff := cmp.Diff([]string{live}, sweepStale(context.Background(), dir, log, everyLocal)); diff != "" {
		t.Errorf("removed once the pool's program was killed (-want +got):\n%s", diff)
	}
	for _, p := range append([]string{dead, live}, kept[1:]...) {
		if want := p != dead && p != live; exists(p) != want {
			t.Errorf("%s: exists %v, want %v", p, !want, want)
		}
	}
}

// TestSweepStaleOnlyWhereNoOneRenames: where someone else could give a
// directory of this user's a pool's name, the sweep removes nothing: in
// a directory others may write that is not sticky, and in one of
// another user's. Sticky, as /tmp is, or written by this user alone, it
// removes what pools left.
func TestSweepStaleOnlyWhereNoOneRenames(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, tempPrefix+"1")
	log := slog.New(slog.DiscardHandler)
	cases := []struct {
		mode  fs.FileMode
		owner int // -1: this user
		want  []string
	}{
		{0o777, -1, nil},
		{0o757, -1, nil},
		{0o770, -1, nil},
		{0o775, -1, nil},
		{0o777 | fs.ModeSticky, -1, []string{stale}},
		{0o755, -1, []string{stale}},
	}
	if os.Geteuid() == 0 {
		cases = append(cases, struct {
			mode  fs.FileMode
			owner int
			want  []string
		}{0o755, 65534, nil})
	}
	for _, c := range cases {
		if err := os.Mkdir(stale, 0o700); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, c.mode); err != nil {
			t.Fatal(err)
		}
		owner := os.Geteuid()
		if c.owner >= 0 {
			owner = c.owner
		}
		if err := os.Chown(dir, owner, -1); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, sweepStale(context.Background(), dir, log, everyLocal)); diff != "" {
			t.Errorf("mode %v, owner %d (-want +got):\n%s", c.mode, owner, diff)
		}
	}
}

// everyLocal is localLocks for tests that must not depend on the file
// system the machine's temp directory is on.
func everyLocal(string) bool { return true }

// TestLocalLocks: tmpfs (/dev/shm) is a local file system, whose
// directory locks the sweep trusts; /proc and /sys are not among those
// it knows, nor what does not exist.
func TestLocalLocks(t *testing.T) {
	t.Parallel()
	for dir, want := range map[string]bool{"/dev/shm": true, "/proc": false, "/sys": false, "/nonexistent": false} {
		if got := localLocks(dir); got != want {
			t.Errorf("localLocks(%s) = %t, want %t", dir, got, want)
		}
	}
}

// TestSweepOnlyWhereLocksAreLocal: where the file system's locks may not
// be every machine's, the sweep removes nothing.
func TestSweepOnlyWhereLocksAreLocal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stale := filepath.Join(dir, tempPrefix+"1")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	if got := sweepStale(context.Background(), dir, log, func(string) bool { return false }); got != nil {
		t.Errorf("swept %q where locks are not known to be local", got)
	}
	if diff := cmp.Diff([]string{stale}, sweepStale(context.Background(), dir, log, everyLocal)); diff != "" {
		t.Errorf("where they are (-want +got):\n%s", diff)
	}
}

// TestRemoveTreeStops: a removal stops once its context is done (a pool
// closed during its sweep), and leaves the rest.
func TestRemoveTreeStops(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "d")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "f"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := removeTreeCtx(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("removeTreeCtx with its context done: %v, want context.Canceled", err)
	}
	if !exists(filepath.Join(dir, "sub", "f")) {
		t.Error("removeTreeCtx removed the tree with its context done")
	}
	// Done midway, as the pool closes during a sweep: a directory of
	// 1,000 files is not emptied to its end first.
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(dir, "sub", strconv.Itoa(i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := removeTreeCtx(&doneAfter{Context: context.Background(), left: 50}, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("removeTreeCtx done midway: %v, want context.Canceled", err)
	}
	if left, err := os.ReadDir(filepath.Join(dir, "sub")); err != nil || len(left) < 900 {
		t.Errorf("removeTreeCtx done after 50 looks went on: %d of 1,001 entries left in sub, %v", len(left), err)
	}
	if err := removeTreeCtx(context.Background(), dir); err != nil || exists(dir) {
		t.Errorf("removeTreeCtx: %v, the tree left %t", err, exists(dir))
	}
}

// doneAfter is a context whose Err is context.Canceled once it has been
// asked left times.
type doneAfter struct {
	context.Context
	left int
}

func (c *doneAfter) Err() error {
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

// TestSweepNeverTakesANewPool: sweeps run all the while pools make their
// directories in the same place, and never remove one: a directory is
// locked before it has the name sweeps read.
func TestSweepNeverTakesANewPool(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		for ctx.Err() == nil {
			sweepStale(ctx, dir, log, everyLocal)
		}
	}()
	lost := 0
	const pools = 300
	for range pools {
		path, lock, err := makeTempParent(dir)
		if err != nil {
			t.Fatalf("making a pool's directory while sweeps run: %v", err)
		}
		if !exists(path) {
			lost++
		}
		_ = removeTree(path)
		lock.Close()
	}
	cancel()
	<-swept
	if lost > 0 {
		t.Errorf("sweeps removed %d of %d pools' directories as they were made", lost, pools)
	}
}

// TestPoolSweeps: a pool removes what a pool ended without Close left
// in its TempDir, Config.sweepAfter after it is made, and keeps its own
// and another live pool's.
func TestPoolSweeps(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	if !localLocks(d.temp) {
		t.Skipf("%s is not on a file system whose locks the sweep trusts (localLocks)", d.temp)
	}
	// After the pools' own by name: once it is gone, the sweep has been
	// past theirs.
	stale := filepath.Join(d.temp, tempPrefix+"zz")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	late := newPool(t, d, func(c *Config) { c.sweepAfter = time.Hour })
	p := newPool(t, d, func(c *Config) { c.sweepAfter = time.Nanosecond })
	guard := time.Now().Add(10 * time.Second) // a guard, not a bound
	for exists(stale) {
		if time.Now().After(guard) {
			t.Fatalf("%s is still there 10 s after the pool was made", stale)
		}
		time.Sleep(time.Millisecond)
	}
	for _, q := range []*Pool{p, late} {
		if !exists(q.tempParent) {
			t.Errorf("the sweep removed a live pool's directory %s", q.tempParent)
		}
	}
}

// TestPoolSweepsNotBefore: a pool removes nothing before sweepAfter, nor
// once it is closed.
func TestPoolSweepsNotBefore(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	stale := filepath.Join(d.temp, tempPrefix+"1")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, func(c *Config) { c.sweepAfter = time.Hour })
	if err := p.Warm(context.Background(), "echo", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if !exists(stale) {
		t.Errorf("%s was removed before sweepAfter", stale)
	}
}

// TestRenameNoReplace: a pool's directory never takes the place of what
// has its name, empty or not (os.Rename replaces an empty directory).
func TestRenameNoReplace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	from := filepath.Join(dir, "from")
	for _, to := range []string{filepath.Join(dir, "empty"), filepath.Join(dir, "full")} {
		for _, d := range []string{from, to} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		if filepath.Base(to) == "full" {
			if err := os.WriteFile(filepath.Join(to, "f"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := renameNoReplace(from, to); !errors.Is(err, fs.ErrExist) {
			t.Errorf("renameNoReplace onto %s: %v, want fs.ErrExist", to, err)
		}
		if !exists(from) || !exists(to) {
			t.Errorf("renameNoReplace onto %s: from %t, to %t; want both left", to, exists(from), exists(to))
		}
	}
	to := filepath.Join(dir, "new")
	if err := renameNoReplace(from, to); err != nil || exists(from) || !exists(to) {
		t.Errorf("renameNoReplace to a new name: %v, from %t, to %t", err, exists(from), exists(to))
	}
}
