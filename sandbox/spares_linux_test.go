//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// waitSpare waits until p has a spare started, and returns it.
func waitSpare(t *testing.T, p *Pool) *worker {
	t.Helper()
	for {
		p.mu.Lock()
		if len(p.spares) > 0 {
			w := p.spares[0]
			p.mu.Unlock()
			return w
		}
		p.mu.Unlock()
		time.Sleep(time.Millisecond) // the test's own timeout bounds this
	}
}

// wantIdleSpare checks that the one idle worker of tool id (with
// tool.Unsafe) is w, a worker that was a spare.
func wantIdleSpare(t *testing.T, p *Pool, id string, w *worker) {
	t.Helper()
	if got := idleOf(p, id, tool.Unsafe); len(got) != 1 || got[0] != w {
		t.Errorf("%s's idle workers %v, want the spare %p alone", id, got, w)
	}
}

// onlyIdle returns the one idle worker of tool id with caps, failing
// the test when there is not exactly one.
func onlyIdle(t *testing.T, p *Pool, id string, caps tool.Capability) *worker {
	t.Helper()
	ws := idleOf(p, id, caps)
	if len(ws) != 1 {
		t.Fatalf("%d idle workers of %s, want 1", len(ws), id)
	}
	return ws[0]
}

// wantEnds checks that w, which what names, ends within a minute (a
// bound on a hang, not on speed).
func wantEnds(t *testing.T, w *worker, what string) {
	t.Helper()
	select {
	case <-w.exited:
	case <-time.After(time.Minute):
		t.Errorf("%s still runs", what)
	}
}

// underLock returns f(), called with p.mu held.
func underLock(p *Pool, f func() int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return f()
}

// stopWorker stops w with SIGSTOP until the test continues it, or ends.
func stopWorker(t *testing.T, w *worker) {
	t.Helper()
	if err := syscall.Kill(w.pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(w.pid(), syscall.SIGCONT) })
}

// wantPrestartWaits checks that Prestart for tool id waits, now, rather
// than start a worker: given 50 ms, far longer than a worker's start, a
// Prestart that did not wait would have its worker and return nil. It
// lifts the bound on the waits for spares (spareWait).
func wantPrestartWaits(t *testing.T, p *Pool, id, while string) {
	t.Helper()
	p.mu.Lock()
	p.spareWait = time.Hour
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := p.Prestart(ctx, id, tool.Unsafe)
	wantKind(t, "Prestart "+while, err, registry.KindTimeout, "waited for a worker")
	if n := underLock(p, func() int { return p.count[workerKey{id, tool.Unsafe}] }); n != 0 {
		t.Errorf("%d workers of %s started %s, want none", n, id, while)
	}
}

// answer is what a call made in the background returned.
type answer struct {
	text string
	err  error
}

// callUntil calls tool id (with tool.Unsafe) with probeArgs{N: n} in the
// background and returns once until, called with p.mu held, holds; the
// call's answer comes later on the channel. A call that answers first
// fails the test: it did not wait, as what says.
func callUntil(t *testing.T, p *Pool, id string, n int, until func() bool, what string) <-chan answer {
	t.Helper()
	done := make(chan answer, 1)
	go func() {
		text, err := call(t, p, id, tool.Unsafe, probeArgs{N: n})
		done <- answer{text, err}
	}()
	for {
		p.mu.Lock()
		ok := until()
		p.mu.Unlock()
		if ok {
			return done
		}
		select {
		case r := <-done:
			t.Fatalf("%s answered (%q, %v) without waiting %s", id, r.text, r.err, what)
		case <-time.After(100 * time.Microsecond): // the test's own timeout bounds this
		}
	}
}

// idleOf returns the idle workers of tool id with caps.
func idleOf(p *Pool, id string, caps tool.Capability) []*worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.idle[workerKey{id, caps}])
}

// TestSpareIsGivenTheFirstCall: a tool's first call takes the spare
// rather than starting a worker, and another spare takes its place.
func TestSpareIsGivenTheFirstCall(t *testing.T) {
	p := newPool(t, newDirs(t), keepSpare)
	s := waitSpare(t, p)
	if got, err := call(t, p, "echo", tool.Unsafe, probeArgs{N: 1}); err != nil || got != `{"n":1}` {
		t.Fatalf("echo: %q, %v", got, err)
	}
	wantIdleSpare(t, p, "echo", s)
	if s2 := waitSpare(t, p); s2 == s {
		t.Error("the spare given to echo is still a spare")
	}
	// The spare serves its one tool only, as any worker.
	if n := len(processes(p, true)); n != 2 {
		t.Errorf("%d worker processes, want echo's and a new spare", n)
	}
}

// blockOnSpare starts a call of block, which never answers, in the
// background, once p has a spare, and returns once the spare has been
// given to it and the call is in flight, with the function that ends
// the call and waits for it.
func blockOnSpare(t *testing.T, p *Pool) (end func()) {
	t.Helper()
	s := waitSpare(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Call(ctx, "block", tool.Unsafe, []byte(`{}`))
		done <- err
	}()
	for p.inflight.Load() == 0 {
		select {
		case err := <-done:
			t.Fatalf("block answered %v", err)
		case <-time.After(100 * time.Microsecond): // the test's own timeout bounds this
		}
	}
	p.mu.Lock()
	given := s.key == workerKey{"block", tool.Unsafe} && p.count[s.key] == 1
	p.mu.Unlock()
	if !given {
		t.Fatalf("block's call is not in the spare %p", s)
	}
	return func() {
		cancel()
		wantKind(t, "block, cancelled", <-done, registry.KindCancelled, "")
	}
}

// TestSpareReplacedAfterTheFirstCall: the spare that takes the place of
// one given to a tool starts once that tool's first call is answered, not
// while it runs, and a worker started ahead waits as well: on two cores
// either start beside the call made it take 7 to 11 times a warm call.
func TestSpareReplacedAfterTheFirstCall(t *testing.T) {
	p := newPool(t, newDirs(t), keepSpare)
	p.mu.Lock()
	p.spareWait = time.Hour
	p.mu.Unlock()
	end := blockOnSpare(t, p)
	if n := underLock(p, func() int { return p.nspares }); n != 0 {
		t.Errorf("%d spares under way while the first call of the spare's tool runs, want none", n)
	}
	wantPrestartWaits(t, p, "echo", "while the first call of a spare's tool runs")
	end()
	waitSpare(t, p)
}

// TestSpareReplacedDuringALongFirstCall: a first call that runs longer
// than spareWait holds back the next spare for spareWait only.
func TestSpareReplacedDuringALongFirstCall(t *testing.T) {
	p := newPool(t, newDirs(t), keepSpare)
	p.mu.Lock()
	p.spareWait = 10 * time.Millisecond
	p.mu.Unlock()
	end := blockOnSpare(t, p)
	waitSpare(t, p) // the test's own timeout bounds this
	if p.inflight.Load() != 1 {
		t.Error("block's call ended before the next spare was ready")
	}
	end()
}

// poolWithSpareUnderWay returns a new pool and the spare it is starting,
// stopped with SIGSTOP before it is ready, so that it stays under way
// until the test continues it. A spare that was ready first (its ready
// frame sent before the signal) is not what the test needs: another pool
// is made.
func poolWithSpareUnderWay(t *testing.T) (*Pool, *worker) {
	t.Helper()
	for range 10 {
		p := newPool(t, newDirs(t), keepSpare)
		var w *worker
		for w == nil {
			p.mu.Lock()
			for lw := range p.live {
				w = lw
			}
			p.mu.Unlock()
			time.Sleep(100 * time.Microsecond) // the test's own timeout bounds this
		}
		stopWorker(t, w)
		// A ready frame sent before the signal is taken within this time.
		time.Sleep(10 * time.Millisecond)
		if underLock(p, func() int { return len(p.spares) }) == 0 {
			return p, w
		}
		p.Close()
	}
	t.Fatal("every spare of 10 pools was ready before it could be stopped")
	return nil, nil
}

// TestFirstCallWaitsForTheSpareUnderWay: a tool's first call made while
// the spare is still starting waits for that spare, rather than starting
// a worker beside it, and is given it; no more calls wait than spares
// are under way.
func TestFirstCallWaitsForTheSpareUnderWay(t *testing.T) {
	p, first := poolWithSpareUnderWay(t)
	done := callUntil(t, p, "echo", 1, func() bool { return p.spareWaiters == 1 }, "for the spare under way")
	// One spare under way, one call waiting for it: another tool's first
	// call does not wait too, and is served while the spare is stopped.
	p.mu.Lock()
	p.spareWait = time.Hour
	p.mu.Unlock()
	guard, cancelGuard := context.WithTimeout(context.Background(), time.Minute)
	defer cancelGuard()
	if got, err := p.Call(guard, "echo#2", tool.Unsafe, []byte(`{"n":2}`)); err != nil || got != `{"n":2}` {
		t.Fatalf("echo#2 while echo waits for the one spare under way: %q, %v", got, err)
	}
	if err := syscall.Kill(first.pid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.err != nil || r.text != `{"n":1}` {
		t.Fatalf("echo: %q, %v", r.text, r.err)
	}
	wantIdleSpare(t, p, "echo", first)
	if n := underLock(p, func() int { return p.spareWaiters }); n != 0 {
		t.Errorf("%d calls still counted as waiting for a spare", n)
	}
}

// TestSpareThatDoesNotCome: a spare that stays under way holds a call
// for spareWait at most, once: the call then starts its own worker, and
// so does Prestart; a call whose context ends while it waits stops
// counting as a waiter.
func TestSpareThatDoesNotCome(t *testing.T) {
	p, stopped := poolWithSpareUnderWay(t)

	p.mu.Lock()
	p.spareWait = time.Hour
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := p.Call(ctx, "echo", tool.Unsafe, []byte(`{}`))
	wantKind(t, "echo whose spare does not come, its context ending", err, registry.KindTimeout, "waited for a worker")
	if n := underLock(p, func() int { return p.spareWaiters }); n != 0 {
		t.Errorf("%d calls counted as waiting for a spare after the only one returned", n)
	}

	p.mu.Lock()
	p.spareWait = 10 * time.Millisecond
	p.mu.Unlock()
	// Far longer than spareWait: what ends these is the wait's bound.
	guard, cancelGuard := context.WithTimeout(context.Background(), time.Minute)
	defer cancelGuard()
	if got, err := p.Call(guard, "echo", tool.Unsafe, []byte(`{"n":1}`)); err != nil || got != `{"n":1}` {
		t.Fatalf("echo: %q, %v", got, err)
	}
	if err := p.Prestart(guard, "echo#2", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"echo", "echo#2"} {
		if got := idleOf(p, id, tool.Unsafe); len(got) != 1 || got[0] == stopped {
			t.Errorf("%s's idle workers %v, want one of its own, not the stopped spare %p", id, got, stopped)
		}
	}
	if n := underLock(p, func() int { return p.spareWaiters }); n != 0 {
		t.Errorf("%d calls still counted as waiting for a spare", n)
	}
}

// TestPrestartAfterTheSpare: a worker started ahead for a tool starts
// once the spare under way is ready, not beside it.
func TestPrestartAfterTheSpare(t *testing.T) {
	p, spare := poolWithSpareUnderWay(t)
	wantPrestartWaits(t, p, "echo", "while the spare is under way")
	if err := syscall.Kill(spare.pid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	guard, cancelGuard := context.WithTimeout(context.Background(), time.Minute)
	defer cancelGuard()
	if err := p.Prestart(guard, "echo", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	if s := waitSpare(t, p); s != spare {
		t.Errorf("the spare after Prestart is %p, want %p", s, spare)
	}
	if got := idleOf(p, "echo", tool.Unsafe); len(got) != 1 || got[0] == spare {
		t.Errorf("echo's idle workers %v after Prestart, want one that is not the spare %p", got, spare)
	}
}

// TestSpareGivenItsToolFirst: while a spare is being given its tool (it
// is stopped, so that its assignment stays under way), no spare starts in
// its place, not even when SetSpares asks for one, and Prestart starts
// nothing; once the call has its worker, a spare starts in its place and
// Prestart goes on. A call whose context ends during the assignment
// leaves a spare started in its place too.
func TestSpareGivenItsToolFirst(t *testing.T) {
	p := newPool(t, newDirs(t), keepSpare)
	s := waitSpare(t, p)
	stopWorker(t, s)
	done := callUntil(t, p, "echo", 1, func() bool { return p.assigning == 1 }, "for a stopped spare")
	p.SetSpares(1)
	if n := underLock(p, func() int { return p.nspares }); n != 0 {
		t.Errorf("%d spares started or ready while the spare is given its tool, want none", n)
	}
	wantPrestartWaits(t, p, "echo#2", "while the spare is given its tool")

	if err := syscall.Kill(s.pid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.err != nil || r.text != `{"n":1}` {
		t.Fatalf("echo: %q, %v", r.text, r.err)
	}
	wantIdleSpare(t, p, "echo", s)
	s2 := waitSpare(t, p)
	if s2 == s {
		t.Fatal("the spare given to echo is still a spare")
	}
	guard, cancelGuard := context.WithTimeout(context.Background(), time.Minute)
	defer cancelGuard()
	if err := p.Prestart(guard, "echo#2", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	if got := idleOf(p, "echo#2", tool.Unsafe); len(got) != 1 || got[0] == s2 {
		t.Errorf("echo#2's idle workers %v after Prestart, want one that is not the spare %p", got, s2)
	}

	stopWorker(t, s2)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := p.Call(ctx, "echo#3", tool.Unsafe, []byte(`{}`))
	wantKind(t, "echo#3 given a stopped spare, its context ending", err, registry.KindTimeout, "killed")
	if s3 := waitSpare(t, p); s3 == s2 {
		t.Error("the spare killed with echo#3's call is still the spare")
	}
	if n := underLock(p, func() int { return p.assigning }); n != 0 {
		t.Errorf("%d spares counted as being given their tool after every call returned", n)
	}
}

// TestSetSpares: a pool made with no spares starts none until SetSpares
// asks for one; after SetSpares(0) (or below) a spare given to a call is
// not replaced.
func TestSetSpares(t *testing.T) {
	p := newPool(t, newDirs(t), func(c *Config) { c.Spares = 0 })
	if got, err := call(t, p, "echo", tool.Unsafe, probeArgs{N: 1}); err != nil || got != `{"n":1}` {
		t.Fatalf("echo: %q, %v", got, err)
	}
	if n := len(processes(p, true)); n != 1 {
		t.Errorf("%d worker processes in a pool with no spares, want echo's alone", n)
	}
	p.SetSpares(1)
	s := waitSpare(t, p)
	if n := len(processes(p, true)); n != 2 {
		t.Errorf("%d worker processes after SetSpares(1), want echo's and the spare", n)
	}
	for _, n := range []int{0, -1} {
		p.SetSpares(n)
		if kept := underLock(p, func() int { return p.cfg.Spares }); kept != 0 {
			t.Errorf("SetSpares(%d) keeps %d spares, want 0", n, kept)
		}
	}
	if got, err := call(t, p, "fail", tool.Unsafe, probeArgs{}); err == nil {
		t.Fatalf("fail: %q, want its error", got)
	}
	wantIdleSpare(t, p, "fail", s)
	if n := underLock(p, func() int { return p.nspares }); n != 0 {
		t.Errorf("%d spares started or ready after SetSpares(0) and the spare taken, want 0", n)
	}
}

// TestPrestartLeavesTheSpare: a worker started ahead with Prestart is
// started from spawn for its tool, and the spare stays a spare for the
// first call of another tool; Warm, as a call, takes the spare.
func TestPrestartLeavesTheSpare(t *testing.T) {
	p := newPool(t, newDirs(t), keepSpare)
	s := waitSpare(t, p)
	ctx := context.Background()
	if err := p.Prestart(ctx, "echo", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	got := idleOf(p, "echo", tool.Unsafe)
	if len(got) != 1 || got[0] == s {
		t.Errorf("echo's idle workers %v after Prestart, want one that is not the spare %p", got, s)
	}
	if s2 := waitSpare(t, p); s2 != s {
		t.Errorf("the spare after Prestart is %p, want %p", s2, s)
	}
	// A second Prestart finds echo's worker idle and starts nothing.
	if err := p.Prestart(ctx, "echo", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	if n := len(processes(p, true)); n != 2 {
		t.Errorf("%d worker processes after two Prestarts, want echo's and the spare", n)
	}
	if err := p.Warm(ctx, "fail", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	wantIdleSpare(t, p, "fail", s) // Warm takes the spare, as a call does
}

// TestSpareTakesItsToolsRestrictions: a worker started ahead as a spare
// and then given a tool is restricted exactly as one started for that
// tool: the same Enforcement, the same environment, and the same answer
// to every probe, denials included.
func TestSpareTakesItsToolsRestrictions(t *testing.T) {
	needLandlock(t, 1)
	d := newDirs(t)
	secret := filepath.Join(d.other, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(d.work, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	environ := []string{"LLM_API_KEY=sk-secret", "SEARXNG_URL=http://127.0.0.1:1", "HOME=/root", "PATH=/usr/bin", "TZ=UTC", "HTTPS_PROXY=http://127.0.0.1:3"}
	config := func(spares int) func(*Config) {
		return func(c *Config) {
			c.Spares, c.Environ, c.Env = spares, environ, []string{"SEARXNG_URL", "LLM_API_KEY"}
		}
	}
	fresh := newPool(t, d, config(0))
	spared := newPool(t, d, config(1))
	type probe struct {
		id   string
		caps tool.Capability
		args func(pool string) probeArgs
	}
	const u = tool.Unsafe
	path := func(p string) func(string) probeArgs { return func(string) probeArgs { return probeArgs{Path: p} } }
	probes := []probe{
		{"read", u, path(secret)},
		{"read", tool.ReadFiles | u, path(secret)},
		{"caps", u, path("")},
		{"env", u, path("")},
		{"env", tool.Env | u, path("")},
		{"env", tool.Exec | u, path("")},
		{"env", tool.Network | u, path("")},
		{"forkexec", u, path("/bin/true")},
		{"forkexec", tool.Exec | u, path("/bin/true")},
		{"tcp", u, func(string) probeArgs { return probeArgs{Port: 1} }},
		{"create", u, func(pool string) probeArgs { return probeArgs{Path: filepath.Join(d.work, pool)} }},
		{"create", tool.WriteFiles | u, func(pool string) probeArgs { return probeArgs{Path: filepath.Join(d.work, pool)} }},
		{"chmod", tool.ReadFiles | u, func(string) probeArgs { return probeArgs{Path: secret, Mode: 0o777} }},
	}
	if userNamespaces() {
		probes = append(probes, probe{"create", tool.WriteFiles | u, path(filepath.Join(d.work, ".git", "hooks", "pre-commit"))})
	}
	ctx := context.Background()
	for i, pr := range probes {
		name := fmt.Sprintf("%s with %s", pr.id, pr.caps)
		// A tool id of its own per probe, so that each takes a fresh
		// worker or the spare; the probes dispatch on the id's prefix.
		id := fmt.Sprintf("%s#%d", pr.id, i)
		s := waitSpare(t, spared)
		want, err := fresh.Enforcement(ctx, id, pr.caps)
		if err != nil {
			t.Fatalf("%s, a worker started for it: %v", name, err)
		}
		got, err := spared.Enforcement(ctx, id, pr.caps)
		if err != nil {
			t.Fatalf("%s, the spare: %v", name, err)
		}
		if w := idleOf(spared, id, pr.caps); len(w) != 1 || w[0] != s {
			t.Fatalf("%s did not take the spare", name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the spare's Enforcement (-started for the tool +spare):\n%s", name, diff)
		}
		answer := func(p *Pool, pool string) string {
			text, err := call(t, p, id, pr.caps, pr.args(pool))
			out := fmt.Sprintf("%q, %v", normalizeEnv(text, d.temp), err)
			return strings.ReplaceAll(out, id, pr.id)
		}
		if w, g := answer(fresh, "fresh"), answer(spared, "spare"); w != g {
			t.Errorf("%s: started for the tool: %s\nthe spare: %s", name, w, g)
		}
	}
}

// normalizeEnv replaces a worker's private TMPDIR in an env probe's
// answer, and sorts its lines.
func normalizeEnv(text, temp string) string {
	if !strings.Contains(text, "=") {
		return text
	}
	vars := strings.Split(text, "\n")
	for i, v := range vars {
		if dir, ok := strings.CutPrefix(v, "TMPDIR="); ok && filepath.Dir(filepath.Dir(dir)) == temp {
			vars[i] = "TMPDIR=private"
		}
	}
	slices.Sort(vars)
	return strings.Join(vars, "\n")
}

// TestSpareThatCannotStart: where a spare cannot be started, the pool
// says so once and starts no more; calls fail as they would without
// spares, naming the tool.
func TestSpareThatCannotStart(t *testing.T) {
	var log bytes.Buffer
	d := newDirs(t)
	p := newPool(t, d, func(c *Config) {
		keepSpare(c)
		c.Executable = filepath.Join(d.other, "missing")
		c.Logger = slog.New(slog.NewTextHandler(&log, nil))
	})
	for range 3 {
		_, err := call(t, p, "echo", tool.Unsafe, probeArgs{})
		wantKind(t, "echo without an executable", err, registry.KindNotStarted, "missing")
	}
	// The spare's start fails in the background; a Close before it is
	// told would keep it quiet (a pool that is closing says nothing).
	for {
		p.mu.Lock()
		told := p.noSpares
		p.mu.Unlock()
		if told {
			break
		}
		time.Sleep(time.Millisecond) // the test's own timeout bounds this
	}
	p.Close()
	if n := strings.Count(log.String(), "starting a spare tool worker"); n != 1 {
		t.Errorf("the log tells %d times that a spare could not start, want once:\n%s", n, log.String())
	}
	if n := len(p.slots); n != 0 {
		t.Errorf("%d slots held after Close, want none", n)
	}
}

// TestSpareWithoutReadyEnded: a spare that answers its start with
// anything but the ready frame (here a hello, which a worker sends only
// once given its tool) is ended, not left running outside the pool's
// spares with its slot until the pool closes; and no more spares are
// started.
func TestSpareWithoutReadyEnded(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), func(c *Config) { c.Arg = fakeArg; keepSpare(c) })
	failed := func() int {
		if p.noSpares {
			return 1
		}
		return 0
	}
	for underLock(p, failed) == 0 {
		time.Sleep(time.Millisecond) // the test's own timeout bounds this
	}
	live := func() int { return len(p.live) }
	deadline := time.Now().Add(time.Minute) // a bound on a hang, not on speed
	for underLock(p, live) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers live a minute after the spare failed, want none", underLock(p, live))
		}
		time.Sleep(time.Millisecond)
	}
	if n := underLock(p, func() int { return p.nspares }); n != 0 {
		t.Errorf("%d spares counted after the spare failed, want 0", n)
	}
}
