//go:build linux && (amd64 || arm64)

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// refuseNamespacesArg runs the test binary as a program on a kernel that
// refuses user namespaces: a seccomp filter of its own denies clone with
// CLONE_NEWUSER (and clone3, so that Go falls back to clone), as a
// distribution that disables unprivileged user namespaces does.
const refuseNamespacesArg = "-sandbox-test-refuse-namespaces"

// refusedReport is what poolWithoutNamespaces prints.
type refusedReport struct {
	Enforcement Enforcement
	Answer      string
	Err         string
	Log         string
	Spares      int // ready at the end (poolWithCoveredProc in mode "spare")
}

// poolWithoutNamespaces starts a pool that asks for namespaces where the
// kernel refuses them, calls echo, declared with exec and write_files
// (whose restrictions the namespaces carry), five times, and prints what
// happened as JSON. mode "require" sets Config.Require.
func poolWithoutNamespaces(mode string) int {
	rules := []rule{
		{nr: unix.SYS_CLONE, ret: retEPERM, test: anySet, mask: unix.CLONE_NEWUSER},
		{nr: unix.SYS_CLONE3, ret: retENOSYS},
		{nr: unix.SYS_UNSHARE, ret: retEPERM},
	}
	if mode == "nobind" {
		// Namespaces are made, but bind mounts fail.
		rules = []rule{{nr: unix.SYS_MOUNT, ret: retEPERM, arg: 3, test: anySet, mask: unix.MS_BIND}}
	}
	raw, err := filterProgram(nativeArch, rules)
	if err == nil {
		err = installFilter(raw)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var log bytes.Buffer
	dir, err := os.MkdirTemp("", "refused-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Mkdir(dir+"/.git", 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Require: mode == "require",
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r := callEchoes(context.Background(), p)
	// Close waits for the pool's goroutines, starts ahead among them,
	// which log: the log is read after.
	p.Close()
	r.Log = log.String()
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// callEchoes calls echo, declared with exec and write_files (whose
// restrictions the namespaces carry), five times through p, and reports
// the last answer or error, and the worker's Enforcement when there was
// no error.
func callEchoes(ctx context.Context, p *Pool) refusedReport {
	var r refusedReport
	for range 5 {
		out, err := p.Call(ctx, "echo", tool.Exec|tool.WriteFiles, []byte(`{"n":1}`))
		r.Answer = out
		if err != nil {
			r.Err = err.Error()
		}
	}
	if r.Err == "" {
		r.Enforcement, _ = p.Enforcement(ctx, "echo", tool.Exec|tool.WriteFiles)
	}
	return r
}

// runReport runs cmd, the test binary as a program of what, and returns
// the report it prints.
func runReport(t *testing.T, cmd *exec.Cmd, what string) refusedReport {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v (%s)\nstderr:\n%s", what, err, out, stderr.Bytes())
	}
	var r refusedReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("the report of %s %q: %v", what, out, err)
	}
	return r
}

func runRefused(t *testing.T, mode string) refusedReport {
	t.Helper()
	return runReport(t, exec.Command(os.Args[0], refuseNamespacesArg, mode), "the pool on a kernel that refuses namespaces")
}

// TestNamespacesRefusedFallBack: where the kernel refuses namespaces the
// pool starts workers without them, says so once in its log, and the
// worker's Enforcement names what is lost; the call is answered.
func TestNamespacesRefusedFallBack(t *testing.T) {
	t.Parallel()
	r := runRefused(t, "")
	if r.Err != "" || r.Answer != `{"n":1}` {
		t.Fatalf("echo answered %q, error %q; want its arguments", r.Answer, r.Err)
	}
	if r.Enforcement.Namespaces {
		t.Errorf("the worker says it has namespaces: %+v", r.Enforcement)
	}
	missing := strings.Join(r.Enforcement.Missing, "; ")
	for _, lost := range []string{"programs a tool starts can outlive the call", ".git, .hg and .svn are writable"} {
		if !strings.Contains(missing, lost) {
			t.Errorf("Missing does not say %q: %q", lost, r.Enforcement.Missing)
		}
	}
	if n := strings.Count(r.Log, "the kernel refused them"); n != 1 {
		t.Errorf("the log says %d times that namespaces were refused, want once:\n%s", n, r.Log)
	}
}

// TestNamespacesRefusedRequired: with Require, the tool is refused
// instead, saying why, and each call starts one worker at most: a call
// that waits on a start that fails returns its error rather than
// starting another (it once started workers until the refused ones were
// reaped, hundreds for five calls).
func TestNamespacesRefusedRequired(t *testing.T) {
	r := runRefused(t, "require")
	if r.Answer != "" || !strings.Contains(r.Err, RequireEnv+"=1") || !strings.Contains(r.Err, "namespace") {
		t.Errorf("with Require: answer %q, error %q; want a refusal naming %s and the namespaces", r.Answer, r.Err, RequireEnv)
	}
	if n := strings.Count(r.Log, "starting a tool worker"); n > 4 {
		t.Errorf("five refused calls started %d workers ahead, want 4 at most:\n%s", n, r.Log)
	}
}

// TestGitBindFailureRefusesTheTool: where .git cannot be made read-only
// (the bind mount fails), a write_files tool does not run: the worker
// says why and the call fails, naming .git.
func TestGitBindFailureRefusesTheTool(t *testing.T) {
	t.Parallel()
	r := runRefused(t, "nobind")
	if r.Answer != "" || !strings.Contains(r.Err, ".git read-only") || !strings.Contains(r.Err, "operation not permitted") {
		t.Errorf("with bind mounts refused: answer %q, error %q; want the call refused, naming .git", r.Answer, r.Err)
	}
}

// TestLimitIsNotRefusal: a kernel that refuses namespaces makes the
// pool start its workers without them, for good, and so does a limit of
// 0 on user namespaces (configured off); the limit reached, at 1 or
// more, does not (the start fails, and a later one has them), so that
// whoever takes every namespace of the machine for a moment does not
// leave every worker after it without.
func TestLimitIsNotRefusal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err   error
		limit int
		want  bool
	}{
		{unix.EPERM, 100, true},
		{unix.EACCES, 100, true},
		{unix.EINVAL, 100, true},
		{unix.ENOSYS, 100, true},
		{fmt.Errorf("fork/exec: %w", unix.EPERM), 100, true},
		{unix.ENOSPC, 0, true},
		{unix.EUSERS, 0, true},
		{fmt.Errorf("fork/exec: %w", unix.ENOSPC), 0, true},
		{unix.ENOSPC, 1, false},
		{unix.ENOSPC, 100, false},
		{unix.ENOSPC, -1, false}, // the limit could not be read
		{unix.EUSERS, 1, false},
		{fmt.Errorf("fork/exec: %w", unix.ENOSPC), 100, false},
		{unix.ENOMEM, 0, false},
		{unix.EAGAIN, 100, false},
	} {
		if got := refusedUnder(c.err, c.limit); got != c.want {
			t.Errorf("refusedUnder(%v, limit %d) = %v, want %v", c.err, c.limit, got, c.want)
		}
	}
}

// coveredProcArg runs the test binary as a program, in a mount
// namespace of its own, that covers a part of /proc, as some containers
// do, and then does as poolWithoutNamespaces. Mode "spare" also keeps a
// spare worker.
const coveredProcArg = "-sandbox-test-covered-proc"

func poolWithCoveredProc(mode string) int {
	for _, m := range []struct {
		source, target, fstype string
		flags                  uintptr
	}{
		{"", "/", "", unix.MS_REC | unix.MS_PRIVATE}, // nothing reaches the host's mounts
		{"none", "/proc/sys/kernel", "tmpfs", 0},
	} {
		if err := unix.Mount(m.source, m.target, m.fstype, m.flags, ""); err != nil {
			fmt.Fprintf(os.Stderr, "mount %s: %v\n", m.target, err)
			return 1
		}
	}
	dir, err := os.MkdirTemp("", "covered-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if mode == "one-slot" {
		return coveredProcOneSlot(dir)
	}
	if mode == "stress" {
		return coveredProcStress(dir, 60)
	}
	if mode == "stress-short" {
		return coveredProcStress(dir, 20) // each of the 20 waits before Close once
	}
	var log bytes.Buffer
	c := Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, Require: mode == "require",
		Logger: slog.New(slog.NewTextHandler(&log, nil))}
	if mode == "spare" {
		c.Spares = 1
	}
	p, err := NewPool(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// A guard, not a bound: the calls take milliseconds, or hang.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := callEchoes(ctx, p)
	if mode == "spare" {
		// The spare given to echo has another in its place, without
		// namespaces.
		for end := time.Now().Add(5 * time.Second); p.Spares() == 0 && time.Now().Before(end); {
			time.Sleep(time.Millisecond)
		}
		r.Spares = p.Spares()
	}
	p.Close()
	r.Log = log.String()
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// slowWarn is a log handler that takes its time over the message that
// namespaces cannot work here, as a log written to a slow disk may.
type slowWarn struct{ slog.Handler }

func (h slowWarn) Handle(ctx context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "cannot work here") {
		time.Sleep(300 * time.Millisecond)
	}
	return h.Handler.Handle(ctx, r)
}

// coveredProcOneSlot calls two tools at once through a pool of one
// worker where /proc is covered, and reports their errors.
func coveredProcOneSlot(dir string) int {
	var log bytes.Buffer
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, MaxWorkers: 1,
		Logger: slog.New(slowWarn{slog.NewTextHandler(&log, nil)})})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// A guard: the calls take milliseconds, or wait for the idle
	// timeout (a minute) of the other tool's worker.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var r refusedReport
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, id := range []string{"echo#a", "echo#b"} {
		wg.Go(func() {
			_, err := p.Call(ctx, id, 0, []byte(`{}`))
			if err != nil {
				mu.Lock()
				r.Err += err.Error() + "; "
				mu.Unlock()
			}
		})
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	p.Close()
	r.Log = log.String()
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// TestCoveredProcOneSlot: with one worker at most, two tools called at
// once where /proc is covered are both answered: the start that tries
// once more without namespaces gets a slot as any start does, ending
// another tool's idle worker if it must, rather than waiting for the
// slot to be freed (by the idle timeout, a minute, or never for a tool
// that is called again meanwhile).
func TestCoveredProcOneSlot(t *testing.T) {
	r := runCoveredProc(t, "one-slot")
	if r.Err != "" {
		t.Errorf("two calls at once with one slot: %s\nlog:\n%s", r.Err, r.Log)
	}
}

// runCoveredProc runs poolWithCoveredProc in mode in a mount namespace
// of its own.
func runCoveredProc(t *testing.T, mode string) refusedReport {
	t.Helper()
	needNamespaces(t)
	if os.Geteuid() != 0 {
		t.Skip("covering part of /proc in a mount namespace of the test's takes root")
	}
	cmd := exec.Command(os.Args[0], coveredProcArg, mode)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS}
	return runReport(t, cmd, "the pool with part of /proc covered")
}

// TestCoveredProcFallsBack: where a /proc of the worker's own cannot be
// mounted (part of the host's is covered, as in some containers), the
// pool starts its workers without namespaces, as where the kernel
// refuses them, and says so once, naming the mount; the worker's
// Enforcement names what is lost, and the calls are answered, with a
// spare as without. It once failed every call (and before that, waited
// for ever on the threads of the machine's init, which psx read from
// the host's /proc).
func TestCoveredProcFallsBack(t *testing.T) {
	for _, mode := range []string{"", "spare"} {
		r := runCoveredProc(t, mode)
		if r.Err != "" || r.Answer != `{"n":1}` {
			t.Fatalf("mode %q: echo answered %q, error %q; want its arguments", mode, r.Answer, r.Err)
		}
		if r.Enforcement.Namespaces {
			t.Errorf("mode %q: the worker says it has namespaces: %+v", mode, r.Enforcement)
		}
		if missing := strings.Join(r.Enforcement.Missing, "; "); !strings.Contains(missing, "programs a tool starts can outlive the call") {
			t.Errorf("mode %q: Missing does not say that programs outlive the call: %q", mode, r.Enforcement.Missing)
		}
		if mode == "spare" && (r.Spares != 1 || strings.Contains(r.Log, "no more are started ahead")) {
			t.Errorf("mode %q: %d spares at the end, want 1; the spares should go on without namespaces:\n%s", mode, r.Spares, r.Log)
		}
		if n := strings.Count(r.Log, "they cannot work here"); n != 1 || !strings.Contains(r.Log, "mounting a /proc of the worker's PID namespace") {
			t.Errorf("mode %q: the log says %d times that namespaces cannot work here, want once, naming the mount:\n%s", mode, n, r.Log)
		}
	}
}

// TestCoveredProcRequired: with Require, a tool whose restrictions need
// the namespaces is refused there instead, saying why.
func TestCoveredProcRequired(t *testing.T) {
	t.Parallel()
	r := runCoveredProc(t, "require")
	if r.Answer != "" || !strings.Contains(r.Err, RequireEnv+"=1") || !strings.Contains(r.Err, "namespace") {
		t.Errorf("with Require: answer %q, error %q; want a refusal naming %s and the namespaces", r.Answer, r.Err, RequireEnv)
	}
}

// coveredProcStress starts pools of one or two workers, with a spare or
// without, where /proc is covered, calls four tools at once with short
// deadlines or none, closes the pool at once or after a while, and
// reports in Err any slot, count or spare left once all is reaped, in
// each of rounds rounds.
func coveredProcStress(dir string, rounds int) int {
	var r refusedReport
	for round := range rounds {
		p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{},
			MaxWorkers: 1 + round%2, Spares: round % 3 / 2,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		var wg sync.WaitGroup
		for i := range 4 {
			d := time.Duration((round*7+i*3)%25) * time.Millisecond
			if i == 0 {
				d = 5 * time.Second
			}
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), d)
				defer cancel()
				p.Call(ctx, fmt.Sprintf("echo#%d", i), 0, []byte(`{}`))
			})
		}
		time.Sleep(time.Duration(round%20) * time.Millisecond)
		p.Close()
		wg.Wait()
		deadline := time.Now().Add(3 * time.Second)
		for {
			p.mu.Lock()
			slots, count, spares, live := len(p.slots), len(p.count), p.nspares, len(p.live)
			p.mu.Unlock()
			if slots == 0 && count == 0 && spares == 0 && live == 0 {
				break
			}
			if time.Now().After(deadline) {
				r.Err += fmt.Sprintf("round %d: slots %d, count %v, nspares %d, live %d; ", round, slots, p.count, spares, live)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// TestCoveredProcSlots: where /proc is covered, calls at once, short
// deadlines and a pool closed during the starts that try again leave no
// slot, count or spare behind.
func TestCoveredProcSlots(t *testing.T) {
	mode := "stress"
	if testing.Short() {
		mode = "stress-short"
	}
	if r := runCoveredProc(t, mode); r.Err != "" {
		t.Error(r.Err)
	}
}
