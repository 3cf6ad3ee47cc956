//go:build linux

package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// Each test of this file fails on the code before its fix. The probes
// are the r8_ tools of probes8_linux_test.go.

// TestNoLandlockRulesetsWithoutExec: a tool without exec has no memory
// the limit (RLIMIT_DATA) does not count, but each rule of a Landlock
// ruleset is kernel memory, and a ruleset takes a rule for every TCP
// port: a tool with no capability held 4,194,304 rules in 64 rulesets,
// 293 MiB of unreclaimable kernel memory, under a 256 MiB limit, and
// kept them across calls; its descriptors allowed a thousand rulesets.
func TestNoLandlockRulesetsWithoutExec(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, caps := range withoutExec {
		got, err := call(t, p, "r8_landlock", caps, r8Args{N: 1})
		wantErrno(t, "a Landlock ruleset without exec, "+caps.String(), err, "ENOSYS")
		if err == nil {
			t.Errorf("%s: %s, kernel memory no limit counts", caps, got)
		}
	}
	// The positive control: a tool with exec, whose programs may
	// restrict themselves (and share memory the limit does not count).
	needLandlock(t, 4)
	if got, err := call(t, p, "r8_landlock", tool.Exec|tool.Unsafe, r8Args{N: 1}); err != nil || got != "65536 rules in 1 rulesets" {
		t.Errorf("a Landlock ruleset with exec: %q, %v; want 65536 rules in 1 rulesets", got, err)
	}
}

// TestNoTimesChangedWithoutWriteFiles: without write_files nothing is
// written, and a file's times are what make, rsync, backups and the
// cleaners of temp directories go by; Landlock does not see utimensat,
// which the kernel allows on any file of the process's user. A tool
// with no capability set the modification time of a file outside its
// workspace to 1970-01-01 00:00:01.
func TestNoTimesChangedWithoutWriteFiles(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	p := newPool(t, d, nil)
	for _, dir := range []string{d.other, d.work} {
		f := filepath.Join(dir, "victim")
		if err := os.WriteFile(f, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		before, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, caps := range []tool.Capability{tool.Unsafe, tool.Exec | tool.ReadFiles | tool.Network | tool.Env | tool.Unsafe} {
			_, err := call(t, p, "r8_utime", caps, r8Args{Path: f, N: 1})
			wantDenied(t, "utimensat without write_files, "+caps.String(), err)
			if after, err := os.Stat(f); err != nil || !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("%s: the modification time of %s went from %v to %v (%v)", caps, f, before.ModTime(), after.ModTime(), err)
			}
		}
	}
	// The positive control: a tool that writes files may set their
	// times (as tar and cp -p do).
	f := filepath.Join(d.work, "victim")
	if got, err := call(t, p, "r8_utime", tool.WriteFiles|tool.Unsafe, r8Args{Path: f, N: 1}); err != nil || got != "ok" {
		t.Errorf("utimensat with write_files: %q, %v; want ok", got, err)
	}
	if fi, err := os.Stat(f); err != nil || fi.ModTime().Unix() != 1 {
		t.Errorf("with write_files, the modification time of %s is %v (%v); want 1 s after the epoch", f, fi.ModTime(), err)
	}
}

// TestTerminalsBounded: the kernel counts the pseudo-terminals of every
// devpts instance but the machine's first together, against
// kernel.pty.max less kernel.pty.reserve (3,072 by default). A worker
// has a devpts of its own, and a tool that reads files may open its
// /dev/ptmx, which makes a terminal at each open, read-only too: four
// tools with read_files took 3,071 terminals and kept them, after which
// no other worker, and no container on the machine, could open one
// (ENOSPC). A worker holds a 32nd of kernel.pty.max at most.
func TestTerminalsBounded(t *testing.T) {
	needNamespaces(t)
	limit, ok := readSysctl("/proc/sys/kernel/pty/max")
	if !ok {
		t.Skip("no kernel.pty.max here")
	}
	most := max(limit/userShare, 1)
	p := newPool(t, newDirs(t), nil)
	for i, path := range []string{"/dev/ptmx", "/dev/pts/ptmx"} {
		got, err := call(t, p, fmt.Sprintf("r8_ptys#%d", i), tool.ReadFiles|tool.Unsafe, r8Args{Path: path, N: 2 * most})
		if err != nil {
			t.Errorf("%s: %v; want some terminals", path, err)
			continue
		}
		var n int
		if _, err := fmt.Sscanf(got, "%d terminals", &n); err != nil {
			t.Fatalf("%s: %q", path, got)
		}
		// The positive control is that some could be opened at all.
		if n < 1 || n > most {
			t.Errorf("%s: %s; want 1 to %d (kernel.pty.max %d / %d)", path, got, most, limit, userShare)
		}
	}
}

// TestNoSeccompFiltersWithoutExec: a tool without exec has no memory the
// limit (RLIMIT_DATA) does not count, but a seccomp filter of its own is
// kernel memory (the program, its translation and its compiled code),
// and a user-notification listener's descriptor keeps the filters of
// its thread after the thread ends: a tool with no capability made 1,000
// threads that each loaded 7 filters of 4,096 instructions, the last
// with a listener, and kept the listeners, 576 MiB of kernel memory
// (241 MiB of slab, 335 MiB of vmalloc) under a 256 MiB limit, across
// calls.
func TestNoSeccompFiltersWithoutExec(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, caps := range withoutExec {
		for _, how := range []string{"listener", "thread", "prctl"} {
			got, err := call(t, p, "r8_seccomp", caps, r8Args{Path: how, N: 1, M: 1})
			wantDenied(t, "a seccomp filter without exec ("+how+"), "+caps.String(), err)
			if err == nil {
				t.Errorf("%s (%s): %s, kernel memory no limit counts", caps, how, got)
			}
		}
	}
	// The positive control: a tool with exec, whose programs may filter
	// their own system calls (and share memory the limit does not
	// count).
	for _, how := range []string{"listener", "prctl"} {
		if got, err := call(t, p, "r8_seccomp", tool.Exec|tool.Unsafe, r8Args{Path: how, N: 1, M: 2}); err != nil || !strings.HasPrefix(got, "2 filters,") {
			t.Errorf("seccomp filters with exec (%s): %q, %v; want 2 filters", how, got, err)
		}
	}
}

// TestNoRecordLocksWithoutFiles: a record lock is kernel memory the
// limit does not count, and a file takes one for each byte (the kernel
// merges only those that touch). A tool with no capability held
// 1,800,000 read locks, 343 MiB, on 900 files of the zone database,
// which every worker may read, under a 256 MiB limit, and kept them
// across calls. A tool that reads and writes no file of its own takes
// none.
func TestNoRecordLocksWithoutFiles(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	zones := ""
	for _, d := range RuntimeReadPaths {
		if strings.Contains(d, "zoneinfo") && exists(filepath.Join(d, "UTC")) {
			zones = d
			break
		}
	}
	if zones == "" {
		t.Skip("no zone database here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, caps := range []tool.Capability{tool.Unsafe, tool.Network | tool.Env | tool.Unsafe} {
		got, err := call(t, p, "r8_locks", caps, r8Args{Path: zones, N: 2, M: 2})
		wantDenied(t, "record locks without files, "+caps.String(), err)
		if err == nil {
			t.Errorf("%s: %s", caps, got)
		}
	}
	// The positive control: a tool that reads files may lock them, as
	// a reader of an SQLite database does.
	if got, err := call(t, p, "r8_locks", tool.ReadFiles|tool.Unsafe, r8Args{Path: zones, N: 2, M: 2}); err != nil || got != "4 locks on 2 files" {
		t.Errorf("record locks with read_files: %q, %v; want 4 locks on 2 files", got, err)
	}
}

// tempAsUserArg runs the test binary as a program of a user other than
// root (nobody), whom the permissions of a directory hold: it starts a
// pool whose workspace and temp directory are the directory it is
// given, calls r8_lockdir with write_files, closes the pool and prints
// what is left in the directory, as JSON.
const tempAsUserArg = "-sandbox-test-temp-as-user"

type tempReport struct {
	Answer, Err string
	Left        []string
}

func tempAsUser(dir string) int {
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var r tempReport
	r.Answer, err = p.Call(context.Background(), "r8_lockdir", tool.WriteFiles|tool.Unsafe, nil)
	if err != nil {
		r.Err = err.Error()
	}
	p.Close()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		r.Left = append(r.Left, e.Name())
	}
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// TestTempDirsRemovedWhatever: a worker's temp directory goes with the
// worker, whatever its tool left there. A tool with write_files took
// every permission from a directory it made there (chmod 0): the pool,
// run by a user other than root, could neither list nor empty it, and
// the worker's temp directory, with the file in it, and the pool's
// directory of temp directories stayed after the pool closed.
func TestTempDirsRemovedWhatever(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the test starts a program as another user, which takes root")
	}
	exe, work := forUser(t, nobody)
	var r tempReport
	runAsUser(t, exe, work, nobody, &r, tempAsUserArg, work)
	if r.Err != "" || r.Answer != "ok" {
		t.Fatalf("r8_lockdir: %q, %s", r.Answer, r.Err)
	}
	if len(r.Left) != 0 {
		t.Errorf("left after the pool closed: %q; want nothing", r.Left)
	}
}

// TestThreadsBoundedForRoot: a worker holds at most Limits.Processes
// processes and threads (RLIMIT_NPROC), but the kernel exempts root
// from that limit, in a user namespace too: as root, a tool with no
// capability made 704 threads in its worker under a limit of 256, and
// could have gone on until every process id of the machine (32,768
// here) was taken, when nothing on the machine could start a process.
// Where the kernel bounds the process ids of a PID namespace (Linux
// 6.14), the worker bounds its own: to the limit and the 300 ids the
// namespace gives first.
func TestThreadsBoundedForRoot(t *testing.T) {
	needNamespaces(t)
	if os.Geteuid() != 0 {
		t.Skip("RLIMIT_NPROC holds for a user other than root (TestProcessLimit)")
	}
	if !perNamespacePidMax() {
		t.Skip("this kernel bounds no PID namespace's process ids")
	}
	// No data limit: in a build with cgo each thread's stack is 8 MiB
	// of it.
	p := newPool(t, newDirs(t), func(c *Config) { c.Limits.Memory = -1 })
	got, err := call(t, p, "r8_threads", tool.Unsafe, r8Args{N: 700})
	if err == nil {
		p.mu.Lock()
		for w := range p.live {
			if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", w.pid())); err == nil && len(ents) > reservedPIDs+int(p.cfg.Limits.Processes) {
				t.Errorf("as root, a tool with no capability holds %d threads under a limit of %d, %d with the first ids (%s)", len(ents), p.cfg.Limits.Processes, reservedPIDs+p.cfg.Limits.Processes, got)
			}
		}
		p.mu.Unlock()
	}
	// The control: a worker holds threads up to the bound.
	if got, err := call(t, p, "r8_threads#2", tool.Unsafe, r8Args{N: 100}); err != nil {
		t.Errorf("100 threads: %q, %v", got, err)
	}
	// An honest tool with exec starts processes call after call in a
	// warm worker: past the first process ids the kernel gives those
	// above 300 only, so the bound leaves room there.
	for i := range 5 {
		if got, err := call(t, p, "forks", tool.Exec|tool.Unsafe, probeArgs{N: 100}); err != nil || got != "100 started" {
			t.Fatalf("call %d of a tool with exec: %q, %v; want 100 started", i+1, got, err)
		}
	}
	// The processes of a tool with exec are bounded too, as Missing
	// says.
	enf, err := p.Enforcement(context.Background(), "forks", tool.Exec|tool.Unsafe)
	if err != nil {
		t.Fatal(err)
	}
	if m := strings.Join(enf.Missing, "; "); strings.Contains(m, "not bounded") {
		t.Errorf("as root, a tool with exec: Missing %q, want the processes bounded", m)
	}
}
