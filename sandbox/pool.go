package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// RequireEnv is the environment variable that, set to 1, makes a program
// refuse to run a tool whose restrictions cannot be enforced (see
// Config.Require).
const RequireEnv = "TOOLREG_REQUIRE_SANDBOX"

// Config configures a Pool.
type Config struct {
	// Arg is the hidden first argument that makes the executable run
	// Serve instead of its usual work. Required.
	Arg string
	// Executable is the program to start as a worker;
	// os.Executable() when empty.
	Executable string
	// WorkDir is the workspace: the worker's directory, and where tools
	// with tool.WriteFiles may write. The current directory when empty.
	WorkDir string
	// TempDir is where each worker gets a private temporary directory
	// of its own (its TMPDIR, which tools with tool.WriteFiles may read
	// and write), removed when the worker ends; os.TempDir() when empty.
	TempDir string
	// Environ is the environment the workers' variables are taken from;
	// os.Environ() when nil.
	Environ []string
	// Hide names directories no tool sees, the agent's own state (the
	// OAuth tokens of its MCP servers, its kept conversations): each
	// worker covers those that exist with an empty read-only file system
	// in its mount namespace. Where workers run without namespaces, a
	// tool that reads files has it among its missing restrictions.
	Hide []string
	// Home is the user's home directory: where the workspace holds it, a
	// tool that writes files could change what runs at the user's next
	// login or the agent's next start (~/.bashrc, ~/.config), which no
	// restriction of a worker prevents, and such a tool is refused under
	// Require, or its enforcement names it as missing. HOME in Environ
	// when empty, else the user's home in the system's user database.
	Home string
	// Protect names files whose change would change the programs the
	// agent starts (its config file, the lists of MCP servers it reads):
	// where the workspace holds one, each worker keeps it read-only in
	// its mount namespace, and the directories between it and the
	// workspace in place. Where workers run without namespaces, or where
	// its path runs through a symbolic link in the workspace (which a
	// tool could replace), a tool that writes files has it among its
	// missing restrictions.
	Protect []string
	// Env names the variables the tools are configured with (such as
	// SEARXNG_URL); only workers whose tools declare tool.Env get them.
	// LLM_API_KEY is never passed.
	Env []string
	// Pass names variables every worker gets whatever its capabilities:
	// settings that are no secret, such as the egress allow list.
	Pass []string
	// MaxWorkers bounds the live worker processes; calls beyond it wait
	// for one, their contexts still honoured. DefaultMaxWorkers when
	// zero.
	MaxWorkers int
	// IdleTimeout is how long an idle worker is kept for the next call
	// of its tool; DefaultIdleTimeout when zero.
	IdleTimeout time.Duration
	// Spares is how many workers are kept started ahead for no tool in
	// particular: a tool's call that finds no idle worker of its own is
	// given a spare, which then only restricts itself to the tool's
	// capabilities, instead of waiting for a process to start; another
	// spare is started in its place. A spare has done, before it is
	// given a tool, all that does not depend on one: started, its
	// descriptors closed, its mounts isolated, its limits set and its
	// capabilities dropped. None when zero: a program that makes one
	// call, such as agent call, starts only the worker it needs.
	Spares int
	// Limits bound each worker process; zero fields take their defaults.
	Limits Limits
	// NoNamespaces starts workers without namespaces of their own even
	// where the kernel offers them (for tests of that case).
	NoNamespaces bool
	// NoWriters says that no tool the pool serves has tool.WriteFiles:
	// the search of the workspace for nested repositories, which only
	// their workers need, then waits until a tool that writes asks for a
	// worker, if one ever does, instead of starting as the pool is made
	// (see lookForNested). A spare started before the search ended is
	// not given a tool that writes.
	NoWriters bool
	// Require refuses to run a tool whose restrictions cannot all be
	// enforced (registry.KindRefused) instead of logging a warning once per
	// capability set.
	Require bool
	// Logger receives the pool's messages and, at debug level, the
	// workers' stderr; slog.Default() when nil.
	Logger *slog.Logger

	// sweepAfter is how long after it is made the pool removes what
	// pools ended without Close left in TempDir (sweepStale);
	// defaultSweepAfter when zero. A test sets it.
	sweepAfter time.Duration
}

// The defaults of Config.
const (
	DefaultMaxWorkers  = 16
	DefaultIdleTimeout = time.Minute
)

// defaultSpareWait bounds how long a call waits for a spare under way
// before it starts a worker of its own: far above a spare's start (7 ms
// to 30 ms on the machines measured), so that only a spare that does not
// come is given up on. It also bounds how long a spare given a tool holds
// back the next (see assignSpare).
const defaultSpareWait = time.Second

// defaultSweepAfter is how long after it is made a pool removes the
// temp directories that pools ended without Close left (see
// sweepStale): long enough that a one-off call, or a server's first
// answers, never share the processors with it.
const defaultSweepAfter = 10 * time.Second

// Pool runs tools in worker processes: re-executions of the program
// that restrict themselves to the capabilities of the one tool they
// run. Workers are kept warm and reused for their tool's calls, as many
// as its calls have needed at once, until they have been idle for
// Config.IdleTimeout; at most Config.MaxWorkers live at once. A call
// whose context ends kills its worker; a worker that dies during a call
// fails that call; a fresh worker takes the place of either at the
// tool's next call.
type Pool struct {
	cfg    Config
	log    *slog.Logger
	ctx    context.Context // ends when the pool closes
	cancel context.CancelFunc
	slots  chan struct{} // a token per live worker

	noNamespaces atomic.Bool  // the kernel refused them once
	inflight     atomic.Int64 // calls sent to a worker and not yet answered

	mu     sync.Mutex
	closed bool
	idle   map[workerKey][]*worker
	live   map[*worker]struct{}
	// count is the number of live or starting workers of each tool;
	// starting those started ahead and not yet ready.
	count, starting map[workerKey]int
	// queue holds the calls that wait for a busy tool's worker, the
	// longest waiting first: a worker freed goes to the first (keep),
	// not to whichever call wakes first. A call handed one is out of
	// it: no worker is started ahead for a call already served.
	queue map[workerKey][]*waiter
	// failures counts the starts ahead of each tool that failed, and
	// failed holds the last one's error: a call that waits sees a start
	// fail and returns its error, rather than starting another.
	failures map[workerKey]int
	failed   map[workerKey]error
	// busyFor is how long each tool's calls have held a worker lately, a
	// moving average (see average), and fastestStart the shortest time a
	// worker of the pool has taken from spawn to ready for a call (its
	// restrictions included) or, a spare, for a tool: a call that finds
	// its tool's workers busy has one more started only once waiting for
	// them looks slower than a start (see get). The fastest, not an
	// average: a tool that takes the processors while others start makes
	// their starts slow, and must not make their calls wait the longer.
	busyFor      map[workerKey]time.Duration
	fastestStart time.Duration
	// spares are the workers started ahead for no tool and ready for
	// one; nspares counts them with those whose start is under way.
	// noSpares is set when a spare failed to start: none are tried again.
	spares   []*worker
	nspares  int
	noSpares bool
	// spareWaiters counts the calls that wait for a spare under way
	// (see get): no more wait than there are spares starting. A call
	// waits for spares for spareWait at most in all.
	spareWaiters int
	spareWait    time.Duration
	// assigning counts the spares given their tool whose first call is
	// not yet answered, spareWait at most each (assignSpare): meanwhile
	// no spare starts and Prestart waits (spareWait at most).
	assigning int
	freed     chan struct{} // closed, and replaced, when a worker goes idle or a slot frees
	warned    map[tool.Capability]bool

	// nested are the version-control directories below the workspace's
	// top, searched for once (findNested) as the pool is made or, with
	// Config.NoWriters, when a tool that writes first asks for a worker
	// (lookForNested, which sets nestedAsked under mu); set before
	// nestedDone closes.
	nested      nestedScan
	nestedAsked bool
	nestedDone  chan struct{}
	// search is findNested (a test holds it back).
	search func(ctx context.Context, workDir string) nestedScan

	procs sync.WaitGroup // the goroutines that reap workers, drain their stderr and reap idle ones

	// tempParent is the directory the pool made for its workers' temp
	// directories, removed by Close; "" when they are made in
	// Config.TempDir itself.
	tempParent string
	// tempLock holds tempParent locked while the pool lives (see
	// makeTempParent); Close lets it go once tempParent is removed.
	tempLock io.Closer
	// homeInWork is set when the workspace holds Config.Home.
	homeInWork bool
	// unprotected names the files of Config.Protect in the workspace
	// that no mount can keep read-only (see protectedFiles).
	unprotected []string
}

// workerKey names the workers that may serve a call: those of its tool,
// restricted to its capabilities.
type workerKey struct {
	id   string
	caps tool.Capability
}

// NewPool checks c and returns a pool; workers start on demand. It
// makes the calling process not dumpable (see Undumpable): the workers
// run as the same user.
func NewPool(c Config) (*Pool, error) {
	if c.Arg == "" {
		return nil, errors.New("sandbox pool: Config.Arg is empty")
	}
	if c.Executable == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("sandbox pool: finding the executable: %w", err)
		}
		c.Executable = exe
	}
	if c.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("sandbox pool: working directory: %w", err)
		}
		c.WorkDir = wd
	}
	if c.TempDir == "" {
		c.TempDir = os.TempDir()
	}
	for _, d := range []*string{&c.WorkDir, &c.TempDir} {
		abs, err := absDir(*d)
		if err != nil {
			return nil, fmt.Errorf("sandbox pool: %w", err)
		}
		*d = abs
	}
	// The workers' temp directories go in one of the pool's, which
	// each worker covers but for its own (see ownTempDir): a tool that
	// writes the workspace, where the temp directory is in it, would
	// otherwise write in the others', and a tool that reads files would
	// read what the others' tools wrote there (a token written to a
	// config file for a program a tool runs).
	sweepDir := c.TempDir
	d, tempLock, err := makeTempParent(c.TempDir)
	if err != nil {
		return nil, fmt.Errorf("sandbox pool: the workers' temp directory: %w", err)
	}
	c.TempDir = d
	tempParent := d
	if c.Environ == nil {
		c.Environ = os.Environ()
	}
	if c.Home == "" {
		c.Home = homeOf(c.Environ)
	}
	c.Hide = hidden(c.Hide, c.WorkDir, c.TempDir)
	var unprotected []string
	c.Protect, unprotected = protectedFiles(c.WorkDir, c.Protect)
	if c.MaxWorkers <= 0 {
		c.MaxWorkers = DefaultMaxWorkers
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	c.Limits = c.Limits.withDefaults()
	log := c.Logger
	if log == nil {
		log = slog.Default()
	}
	if err := Undumpable(); err != nil {
		_ = removeTree(tempParent)
		tempLock.Close()
		return nil, fmt.Errorf("sandbox pool: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pool{
		cfg: c, log: log, ctx: ctx, cancel: cancel,
		slots:    make(chan struct{}, c.MaxWorkers),
		idle:     map[workerKey][]*worker{},
		live:     map[*worker]struct{}{},
		count:    map[workerKey]int{},
		starting: map[workerKey]int{},
		queue:    map[workerKey][]*waiter{},
		busyFor:  map[workerKey]time.Duration{},
		failures: map[workerKey]int{},
		failed:   map[workerKey]error{},
		freed:    make(chan struct{}),
		warned:   map[tool.Capability]bool{},

		spareWait:   defaultSpareWait,
		tempParent:  tempParent,
		tempLock:    tempLock,
		homeInWork:  c.Home != "" && inWorkspace(c.WorkDir, c.Home),
		unprotected: unprotected,
	}
	p.noNamespaces.Store(c.NoNamespaces)
	p.nestedDone = make(chan struct{})
	p.search = findNested
	if !c.NoWriters {
		p.mu.Lock()
		p.lookForNested()
		p.mu.Unlock()
	}
	p.procs.Add(1)
	go p.reapIdle()
	p.mu.Lock()
	p.fillSpares()
	p.mu.Unlock()
	p.procs.Add(1)
	go p.sweep(sweepDir)
	return p, nil
}

// sweep removes, once, what pools ended without Close left in dir (see
// sweepStale), Config.sweepAfter after the pool is made, unless it is
// closed first.
func (p *Pool) sweep(dir string) {
	defer p.procs.Done()
	after := p.cfg.sweepAfter
	if after <= 0 {
		after = defaultSweepAfter
	}
	t := time.NewTimer(after)
	defer t.Stop()
	select {
	case <-p.ctx.Done():
	case <-t.C:
		sweepStale(p.ctx, dir, p.log, localLocks)
	}
}

// inWorkspace reports whether the directory d is workDir or inside it,
// symbolic links resolved.
func inWorkspace(workDir, d string) bool {
	for _, p := range []*string{&workDir, &d} {
		if r, err := filepath.EvalSymlinks(*p); err == nil {
			*p = r
		}
	}
	rel, err := filepath.Rel(workDir, d)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Check reports what a worker of a pool made with c would enforce for a
// tool with caps on this machine, without starting one: the package's
// Check, for workers with namespaces or without (NoNamespaces), and what
// depends on where the agent runs: a workspace that holds the home
// directory, config files of Protect no mount keeps read-only, the
// directories of Hide where no mount namespace covers them. The defaults
// of NewPool apply.
func (c Config) Check(caps tool.Capability) Enforcement {
	e := check(caps, userNamespaces() && !c.NoNamespaces)
	if c.WorkDir == "" {
		c.WorkDir, _ = os.Getwd()
	}
	if c.TempDir == "" {
		c.TempDir = os.TempDir()
	}
	for _, d := range []*string{&c.WorkDir, &c.TempDir} {
		if abs, err := absDir(*d); err == nil {
			*d = abs
		}
	}
	if c.Environ == nil {
		c.Environ = os.Environ()
	}
	if c.Home == "" {
		c.Home = homeOf(c.Environ)
	}
	protect, unprotected := protectedFiles(c.WorkDir, c.Protect)
	e.Missing = append(e.Missing, mountGaps(caps, e.Namespaces, protect, hidden(c.Hide, c.WorkDir, c.TempDir))...)
	e.Missing = append(e.Missing, placeGaps(caps, c.WorkDir, c.Home, c.Home != "" && inWorkspace(c.WorkDir, c.Home), unprotected)...)
	return e
}

// hidden returns the directories of hide that exist (see existingDirs)
// but for those that hold the workspace or the temp directory: the
// workers work there.
func hidden(hide []string, workDir, tempDir string) []string {
	return slices.DeleteFunc(existingDirs(hide), func(d string) bool {
		return inWorkspace(d, workDir) || inWorkspace(d, tempDir)
	})
}

// protectedFiles returns the files of fs that the workspace workDir (an
// absolute path) holds, absolute and with their symbolic links resolved,
// as a worker's mounts see them; and, as unprotected, those whose path
// runs through a symbolic link in the workspace, or that cannot be
// resolved: a tool that writes could replace the link, or make the file.
// A relative path is taken from the current directory.
func protectedFiles(workDir string, fs []string) (protect, unprotected []string) {
	wd := workDir
	if r, err := filepath.EvalSymlinks(wd); err == nil {
		wd = r
	}
	for _, f := range fs {
		abs, err := filepath.Abs(f)
		if err != nil || !inWorkspace(workDir, abs) {
			continue
		}
		r, err := filepath.EvalSymlinks(abs)
		if err != nil {
			unprotected = append(unprotected, abs)
			continue
		}
		// Written below the workspace's own path, it must resolve to
		// the same place below the resolved one: else a link in the
		// workspace lies on the way.
		if rel, err := filepath.Rel(workDir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && r != filepath.Join(wd, rel) {
			unprotected = append(unprotected, abs)
			continue
		}
		if fi, err := os.Stat(r); err != nil || !fi.Mode().IsRegular() {
			unprotected = append(unprotected, abs)
			continue
		}
		if !slices.Contains(protect, r) {
			protect = append(protect, r)
		}
	}
	return protect, unprotected
}

// existingDirs returns the directories of ds that exist, absolute and
// with their symbolic links resolved, as a worker's mounts see them; a
// relative one is taken from the current directory.
func existingDirs(ds []string) []string {
	var out []string
	for _, d := range ds {
		r, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		if r, err = filepath.Abs(r); err != nil {
			continue
		}
		if fi, err := os.Stat(r); err == nil && fi.IsDir() && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// homeOf returns the home directory that HOME names in environ, or where
// it is unset, the user's home in the system's user database; "" when
// neither says.
func homeOf(environ []string) string {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok && v != "" {
			return v
		}
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

func absDir(d string) (string, error) {
	fi, err := os.Stat(d)
	if err != nil {
		return "", fmt.Errorf("directory %s: %w", d, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", d)
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("directory %s: %w", d, err)
	}
	return abs, nil
}

// Call runs tool id with args in a worker of its own restricted to
// caps. A failure is a *registry.Error whose Tool is id.
func (p *Pool) Call(ctx context.Context, id string, caps tool.Capability, args []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", ctxError(id, err)
	}
	w, err := p.get(ctx, workerKey{id, caps}, true)
	if err != nil {
		return "", err
	}
	// A worker holds its processor waiting for its next request only
	// while the pool has other calls in flight, and no more than twice
	// the cores: with more, the agent's threads stay busy and a worker
	// that holds gains nothing and waits for the agent's CPU; with this
	// call alone, the agent's CPUs go idle between calls, and on a
	// virtual machine whose idle CPUs are slow to wake (Firecracker's,
	// here) a worker that held made a lone call 65 µs instead of 41 µs
	// (bench/results/isolated-call.md). The request says which.
	release := releaseAfter(p.inflight.Add(1), runtime.NumCPU())
	began := time.Now()
	text, err, keep := w.call(ctx, id, args, release)
	held := time.Since(began)
	p.inflight.Add(-1)
	w.unhold()
	// A request the worker never read (too large, or a header that
	// could not be made) and bad arguments, refused before the tool
	// ran, say nothing of how long the tool's calls take.
	var e *registry.Error
	timed := !errors.As(err, &e) || e.Kind != registry.KindArguments
	if keep {
		p.putAnswered(w, held, timed)
		return text, err
	}
	w.kill()
	if timed {
		// A call cut short, or whose worker died, held its worker too.
		p.mu.Lock()
		p.busyFor[w.key] = average(p.busyFor[w.key], held)
		p.mu.Unlock()
	}
	if errors.As(err, &e) && e.Kind == registry.KindCrashed {
		p.log.Error("tool worker died during a call", "tool", id, "caps", caps.String(), "pid", w.pid(), "error", e.Err, "stderr", w.tail.String())
	}
	return text, err
}

// releaseAfter reports whether a worker lets its processor go after a
// request sent with n calls in flight (this one included) on cpus cores:
// unless 2 ≤ n ≤ 2×cpus (see Pool.Call).
func releaseAfter(n int64, cpus int) bool {
	return n < 2 || n > int64(2*cpus)
}

// Enforcement starts or reuses a worker for tool id with caps and
// returns what it enforces. Check tells the same without starting one.
func (p *Pool) Enforcement(ctx context.Context, id string, caps tool.Capability) (Enforcement, error) {
	w, err := p.get(ctx, workerKey{id, caps}, true)
	if err != nil {
		return Enforcement{}, err
	}
	p.put(w)
	return w.enf, nil
}

// Warm starts a worker for tool id with caps unless one is idle, so
// that its first call does not wait for a start. It takes a spare when
// one is ready, as a call does.
func (p *Pool) Warm(ctx context.Context, id string, caps tool.Capability) error {
	_, err := p.Enforcement(ctx, id, caps)
	return err
}

// Prestart is Warm for calls that may never come: it starts the worker
// from spawn and leaves the spares to the calls, so that a server that
// starts its tools' workers ahead does not take the spare that the
// first call of another tool would be given; and it starts once the
// spares under way are ready and the calls given one are answered, so
// as not to slow them (for a second at most: see assignSpare).
func (p *Pool) Prestart(ctx context.Context, id string, caps tool.Capability) error {
	w, err := p.get(ctx, workerKey{id, caps}, false)
	if err != nil {
		return err
	}
	p.put(w)
	return nil
}

// SetSpares changes how many spare workers the pool keeps (see
// Config.Spares) and starts the missing ones in the background; spares
// beyond n are left for calls. A program that must answer first, such as
// a server's readiness, makes its pool with none and sets them once it
// answers, so that their starts do not take its processors first. Once
// a spare has failed to start, none are started again (and the failure
// was logged); a closed pool starts none.
func (p *Pool) SetSpares(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.Spares = max(n, 0)
	p.fillSpares()
}

// Spares reports how many spare workers are ready for a tool (see
// Config.Spares).
func (p *Pool) Spares() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.spares)
}

// Close kills every worker, idle or busy (a call in flight fails), and
// waits until they are reaped.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	live := make([]*worker, 0, len(p.live))
	for w := range p.live {
		live = append(live, w)
	}
	p.idle = map[workerKey][]*worker{}
	p.mu.Unlock()
	p.cancel()
	for _, w := range live {
		w.kill()
	}
	p.procs.Wait()
	if p.tempParent != "" {
		_ = removeTree(p.tempParent)
	}
	if p.tempLock != nil {
		p.tempLock.Close()
	}
	return nil
}

// get pops an idle worker of k that is still alive. A tool without a
// live worker starts one and waits for it. A call whose tool's workers
// are all busy waits in the tool's queue until one is handed to it, the
// calls that have waited longer first (see keep), and meanwhile has one
// more started in the background for each call that waits, so that a
// short call never waits for a start and the tool's workers grow to the
// demand. Unless the tool's calls have been short enough that the calls
// waiting would have a busy worker before a new one is ready
// (waitBeatsStart): then a call waits as long as the pool's fastest
// start took before one is started for it, so that a tool whose calls
// take well under a start keeps few workers (each start is a clone of
// the agent, and takes a core). A start that finds MaxWorkers alive ends
// the longest idle worker of another tool, or waits for a slot.
//
// With useSpares false, get starts workers from spawn and leaves the
// spares alone (see Prestart).
func (p *Pool) get(ctx context.Context, k workerKey, useSpares bool) (*worker, error) {
	waiting := false
	failures := 0  // of starts ahead when this call began to wait
	var me *waiter // this call in k's queue, once it waits
	defer func() {
		if waiting {
			p.mu.Lock()
			p.leave(k, me)
			p.mu.Unlock()
		}
	}()
	awaitingSpare := false // this call counts in p.spareWaiters
	// spareTimer bounds this call's waits for spares under way (see
	// spareWait), nil until it first waits for one; spareExpired is set
	// when it fires.
	var spareTimer *time.Timer
	spareExpired := false
	// aheadTimer bounds this call's wait for its tool's busy workers
	// before one more is started for it (see waitBeatsStart), nil until
	// it first waits so; aheadExpired is set when it fires.
	var aheadTimer *time.Timer
	aheadExpired := false
	defer func() {
		if spareTimer != nil {
			spareTimer.Stop()
		}
		if aheadTimer != nil {
			aheadTimer.Stop()
		}
		if awaitingSpare {
			p.mu.Lock()
			p.spareWaiters--
			p.wake() // a Prestart may wait for this call (see below)
			p.mu.Unlock()
		}
	}()
	for {
		// The workspace's version-control directories, looked at before
		// taking the lock and only for a tool that writes (see stale).
		var present uint8
		if k.caps&tool.WriteFiles != 0 {
			// The search for the workspace's nested repositories is
			// short; a worker started before it ended is stale.
			select {
			case <-p.nestedDone:
			default:
				p.mu.Lock()
				p.lookForNested()
				p.mu.Unlock()
				select {
				case <-p.nestedDone:
				case <-ctx.Done():
					return nil, ctxError(k.id, ctx.Err())
				}
			}
			present = p.vcsPresent()
		}
		p.mu.Lock()
		if awaitingSpare {
			awaitingSpare = false
			p.spareWaiters--
		}
		if p.closed {
			p.mu.Unlock()
			return nil, callError(k.id, registry.KindNotStarted, "the pool is closed")
		}
		if me != nil && me.w != nil {
			w := me.w
			me.w = nil
			select {
			case <-w.exited:
				p.requeue(k, me) // its reaper frees its slot
			default:
				if !stale(w, present) {
					p.mu.Unlock()
					return w, nil
				}
				w.kill() // its reaper frees its slot
				p.requeue(k, me)
			}
		}
		for ws := p.idle[k]; len(ws) > 0; ws = p.idle[k] {
			w := ws[len(ws)-1]
			p.idle[k] = ws[:len(ws)-1]
			select {
			case <-w.exited:
				continue
			default:
			}
			if stale(w, present) {
				w.kill() // its reaper frees its slot
				continue
			}
			w.idle = false
			paused := w.paused
			w.paused = false
			p.mu.Unlock()
			if paused {
				w.resume()
			}
			return w, nil
		}
		if waiting && p.failures[k] > failures {
			// A start this call waited on failed: so would another.
			err := p.failed[k]
			p.mu.Unlock()
			return nil, err
		}
		if !waiting && p.count[k] > 0 {
			waiting = true
			failures = p.failures[k]
			me = &waiter{handed: make(chan struct{})}
			p.queue[k] = append(p.queue[k], me)
		}
		startNow := p.count[k] == 0
		startAhead := waiting && p.starting[k] < len(p.queue[k])
		if startAhead && !aheadExpired && p.waitBeatsStart(k) {
			startAhead = false
			if aheadTimer == nil {
				aheadTimer = time.NewTimer(p.fastestStart)
			}
		}
		if startNow || startAhead {
			// A spare, if there is one, holds its slot already.
			var spare *worker
			if useSpares {
				spare = p.takeSpare(k, present)
			}
			// A spare under way is nearly there, sooner than a worker
			// started now: the first call of a tool waits for it, and a
			// start ahead (Prestart) lets it finish first, since the
			// first calls may wait for it, and lets the calls that wait
			// for a spare have it, and those given one (assignSpare) be
			// answered, first. For spareWait at most in all:
			// spares that other calls take first, or one that does not
			// come, leave the call to start its own.
			waitSpare := spare == nil && startNow && !spareExpired
			switch {
			case waitSpare && useSpares && p.sparesStarting() > p.spareWaiters:
				awaitingSpare = true
				p.spareWaiters++
			case waitSpare && !useSpares && (p.sparesStarting() > 0 || p.spareWaiters > 0 || p.assigning > 0):
			default:
				waitSpare = false
			}
			if waitSpare {
				startNow, startAhead = false, false
				if spareTimer == nil {
					spareTimer = time.NewTimer(p.spareWait)
				}
			}
			if spare == nil && (startNow || startAhead) {
				select {
				case p.slots <- struct{}{}:
					p.count[k]++
				default:
					if victim := p.oldestIdle(); victim != nil {
						victim.kill() // its slot frees when it is reaped
					}
					startNow, startAhead = false, false
				}
			}
			switch {
			case startNow:
				// This call serves itself: out of the queue, so that
				// no worker is started ahead, or handed, for it.
				if waiting {
					p.leave(k, me)
					waiting, me = false, nil
				}
				p.mu.Unlock()
				if spare != nil {
					return p.assignSpare(ctx, spare)
				}
				w, err := p.start(ctx, k)
				if err != errNamespacesUnusable {
					return w, err
				}
				continue // once more, without namespaces
			case startAhead:
				p.starting[k]++
				p.procs.Add(1)
				go p.startAhead(k, spare)
			}
		}
		freed := p.freed
		var handed chan struct{}
		if me != nil {
			handed = me.handed
		}
		p.mu.Unlock()
		var spareWaited, aheadWaited <-chan time.Time
		if spareTimer != nil {
			spareWaited = spareTimer.C
		}
		if aheadTimer != nil {
			aheadWaited = aheadTimer.C
		}
		select {
		case <-ctx.Done():
			return nil, callError(k.id, kindOf(ctx.Err()), "while it waited for a worker: %w", ctx.Err())
		case <-freed:
		case <-handed:
		case <-spareWaited:
			spareExpired = true
		case <-aheadWaited:
			aheadExpired = true
		}
	}
}

// waiter is a call in a tool's queue (see get): keep hands it a worker,
// w, and closes handed.
type waiter struct {
	w      *worker
	handed chan struct{}
}

// leave takes me, if not nil, out of k's queue; a worker handed to it
// and not taken goes to the next call or is kept idle. Call with p.mu
// held.
func (p *Pool) leave(k workerKey, me *waiter) {
	if me == nil {
		return
	}
	p.unqueue(k, me)
	if w := me.w; w != nil {
		me.w = nil
		p.keep(w)
		p.wake()
	}
}

// unqueue takes me out of k's queue, if it is there. Call with p.mu
// held.
func (p *Pool) unqueue(k workerKey, me *waiter) {
	q := p.queue[k]
	if i := slices.Index(q, me); i >= 0 {
		q = slices.Delete(q, i, i+1)
	}
	if len(q) == 0 {
		delete(p.queue, k)
	} else {
		p.queue[k] = q
	}
}

// requeue puts me back first in k's queue, after the worker handed to
// it had died or was stale. Call with p.mu held.
func (p *Pool) requeue(k workerKey, me *waiter) {
	me.handed = make(chan struct{})
	p.queue[k] = slices.Insert(p.queue[k], 0, me)
}

// waitBeatsStart reports whether the calls that wait for k's busy
// workers would have one sooner than a worker started now would be
// ready at best: when each call holds a worker for busyFor and the
// calls in its queue are served by count workers (those starting and
// those ending counted too), the last of them waits about queued/count ×
// busyFor. Unknown, and false, until k has answered and the pool has
// started a worker. Call with p.mu held.
func (p *Pool) waitBeatsStart(k workerKey) bool {
	busy := p.busyFor[k]
	if busy == 0 || p.fastestStart == 0 || p.count[k] == 0 {
		return false
	}
	return busy*time.Duration(len(p.queue[k])) < p.fastestStart*time.Duration(p.count[k])
}

// startAhead starts a worker for k in the background, holding a slot,
// or gives k the spare when there is one, and keeps it for the calls
// that wait.
func (p *Pool) startAhead(k workerKey, spare *worker) {
	defer p.procs.Done()
	var w *worker
	var err error
	if spare != nil {
		w, err = p.assignSpare(p.ctx, spare)
	} else {
		w, err = p.start(p.ctx, k)
	}
	if err == nil {
		w.unhold()
	}
	p.mu.Lock()
	p.starting[k]--
	switch {
	case err == errNamespacesUnusable:
		// Not a failure: the calls that wait start another, without.
	case err != nil:
		p.failures[k]++
		p.failed[k] = err
	default:
		// The worker is idle in the same hold of the lock that counts
		// its start done: a call that woke in between would find
		// neither, and start another.
		p.keep(w)
	}
	p.wake()
	p.mu.Unlock()
	if err != nil && err != errNamespacesUnusable && p.ctx.Err() == nil {
		p.log.Warn("starting a tool worker", "tool", k.id, "caps", k.caps.String(), "error", err)
	}
}

// oldestIdle removes and returns the worker idle for longest, or nil.
// Call with p.mu held.
func (p *Pool) oldestIdle() *worker {
	var oldest *worker
	var at workerKey
	for k, ws := range p.idle {
		if len(ws) > 0 && (oldest == nil || ws[0].idleSince.Before(oldest.idleSince)) {
			oldest, at = ws[0], k
		}
	}
	if oldest != nil {
		p.idle[at] = p.idle[at][1:]
		if len(p.idle[at]) == 0 {
			delete(p.idle, at)
		}
	}
	return oldest
}

// wake tells the calls waiting for a worker to look again. Call with
// p.mu held.
func (p *Pool) wake() {
	close(p.freed)
	p.freed = make(chan struct{})
}

// release frees the slot of a worker of k. A spare that could not be
// started in its place for want of a slot is started now: otherwise a
// pool whose slots were all taken when its spares were would keep none.
func (p *Pool) release(k workerKey) {
	<-p.slots
	p.mu.Lock()
	p.count[k]--
	if p.count[k] == 0 {
		delete(p.count, k)
	}
	p.fillSpares()
	p.wake()
	p.mu.Unlock()
}

// releaseWorker frees the slot of w, reaped: a spare's, or that of a
// worker of its tool.
func (p *Pool) releaseWorker(w *worker) {
	p.mu.Lock()
	k, spare := w.key, w.spare
	if spare {
		p.nspares--
		if i := slices.Index(p.spares, w); i >= 0 {
			p.spares = slices.Delete(p.spares, i, i+1)
		}
	}
	p.mu.Unlock()
	if !spare {
		p.release(k)
		return
	}
	<-p.slots
	p.mu.Lock()
	p.fillSpares()
	p.wake()
	p.mu.Unlock()
}

// lookForNested starts the search for the workspace's nested
// repositories (findNested), once: as the pool is made, or with
// Config.NoWriters when the first tool that writes files asks for a
// worker. Only those tools need what it finds, and it reads up to
// nestedDirs directories: 4-6 ms of the processor and 270 kB of garbage
// in this project's repository, at each start of an agent whose tools
// do not write. Once the pool is closed, nothing is searched. Call with
// p.mu held.
func (p *Pool) lookForNested() {
	if p.nestedAsked {
		return
	}
	p.nestedAsked = true
	if p.closed {
		close(p.nestedDone)
		return
	}
	search := p.search
	p.procs.Go(func() {
		// Close waits for it, and ends it: a one-shot call in a large
		// workspace would otherwise wait for the whole search at exit.
		p.nested = search(p.ctx, p.cfg.WorkDir)
		if p.nested.note != "" && p.ctx.Err() == nil {
			p.log.Warn("sandbox: " + p.nested.note)
		}
		close(p.nestedDone)
	})
}

// vcsPresent returns which of vcsDirs are in the workspace, a bit each,
// and nestedKnown once the search for nested ones ended.
func (p *Pool) vcsPresent() uint8 {
	var m uint8
	for i, name := range vcsDirs {
		if _, err := os.Lstat(filepath.Join(p.cfg.WorkDir, name)); err == nil {
			m |= 1 << i
		}
	}
	select {
	case <-p.nestedDone:
		m |= nestedKnown
	default:
	}
	return m
}

// nestedKnown is the bit of vcsPresent, past those of vcsDirs, that says
// a worker was started with the nested version-control directories of
// the workspace to make read-only.
const nestedKnown uint8 = 1 << 7

// stale reports whether w cannot serve a tool with tool.WriteFiles, for
// which present is vcsPresent (0 for other tools): a version-control
// directory appeared in the workspace after w started (a git init while
// the pool serves), which w's mounts, set up at its start, leave
// writable.
func stale(w *worker, present uint8) bool { return present&^w.vcs != 0 }

// sparesStarting counts the spares under way that may still come: none
// once a spare failed or the pool closed. A call waits for one only
// while fewer calls wait than there are (see get). Call with p.mu held.
func (p *Pool) sparesStarting() int {
	if p.noSpares || p.closed {
		return 0
	}
	return p.nspares - len(p.spares)
}

// takeSpare gives a spare that is still alive and not stale for present
// (see stale), if there is one, to tool k; the caller then calls
// assignSpare, which starts another in its place. Call with p.mu held.
func (p *Pool) takeSpare(k workerKey, present uint8) *worker {
	for len(p.spares) > 0 {
		w := p.spares[0]
		p.spares = p.spares[1:]
		select {
		case <-w.exited:
			continue // its reaper counts it out
		default:
		}
		if stale(w, present) {
			w.kill() // its reaper counts it out, and starts another
			continue
		}
		p.nspares--
		p.assigning++
		w.spare, w.key = false, k
		p.count[k]++
		return w
	}
	return nil
}

// assignSpare gives w, taken by takeSpare, its tool, and starts a spare
// in its place once w's first call is answered (w.unhold), or
// p.spareWait after it was given its tool, whichever comes first. Until
// then no spare starts and Prestart starts nothing (see get): the call
// that waits for w has the processors. A spare and a worker started
// ahead beside it made a server's first call wait 4 to 7 ms for its
// restrictions instead of 1, and the spare that took its place, started
// as soon as it had them, made its first call take 7 to 11 ms instead of
// 1 on a machine where a warm call took 1 (bench/cmd/firstcall).
// The holds add up: while any spare given a tool holds, none starts, so
// that with Config.Spares above one, spares given one after another keep
// the next from starting until spareWait after the last. A spare given to
// a start ahead, Warm or Enforcement holds until it is put back.
func (p *Pool) assignSpare(ctx context.Context, w *worker) (*worker, error) {
	var once sync.Once
	release := func() {
		once.Do(func() {
			p.mu.Lock()
			p.assigning--
			p.fillSpares()
			p.wake()
			p.mu.Unlock()
		})
	}
	w, err := p.assign(ctx, w)
	if err != nil {
		release()
		return nil, err
	}
	p.mu.Lock()
	hold := p.spareWait
	p.mu.Unlock()
	t := time.AfterFunc(hold, release)
	w.held = func() {
		t.Stop()
		release()
	}
	return w, nil
}

// unhold lets the pool start the spare that takes the place of w, if w
// was a spare that holds it back (see assignSpare).
func (w *worker) unhold() {
	if f := w.held; f != nil {
		w.held = nil
		f()
	}
}

// fillSpares starts spares in the background until there are
// Config.Spares, as long as slots are free and no spare given its tool
// holds them back (see assignSpare). Call with p.mu held.
func (p *Pool) fillSpares() {
	for !p.closed && !p.noSpares && p.assigning == 0 && p.nspares < p.cfg.Spares {
		select {
		case p.slots <- struct{}{}:
		default:
			return
		}
		p.nspares++
		p.procs.Add(1)
		go p.startSpare()
	}
}

// startSpare starts a spare worker, holding a slot counted in nspares,
// and keeps it once it is ready for a tool.
func (p *Pool) startSpare() {
	defer p.procs.Done()
	began := time.Now()
	w, err := p.launch(workerKey{}, true)
	if err == nil {
		stop := context.AfterFunc(p.ctx, w.kill)
		err = w.awaitReady()
		stop()
		if err != nil {
			w.kill() // its reaper counts it out
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil {
		p.fastestStart = fastest(p.fastestStart, time.Since(began))
	}
	if err != nil {
		// The calls that wait for this spare (see get) start their own.
		p.wake()
		// Its reaper starts another spare, without namespaces.
		if p.namespacesUnusable(err) {
			return
		}
		// A start that failed would fail again: no more spares. Another
		// may have failed at the same time, and said so.
		if p.noSpares {
			return
		}
		p.noSpares = true
		if p.ctx.Err() == nil {
			p.log.Warn("starting a spare tool worker; no more are started ahead", "error", err)
		}
		return
	}
	if p.closed {
		w.kill()
		return
	}
	p.spares = append(p.spares, w)
	p.wake()
}

// awaitReady reads the worker's ready frame: it has done all that does
// not depend on its tool. A worker that could not reports why in a hello
// frame instead, or exits.
func (w *worker) awaitReady() error {
	body, err := readFrame(w.resp, nil)
	switch {
	case err != nil:
		w.kill()
		<-w.exited
		return fmt.Errorf("worker %d exited before it was ready: %s", w.pid(), w.exitMessage())
	case len(body) == 1 && body[0] == frameReady:
		w.ready = true
		return nil
	case len(body) > 0 && body[0] == frameHello:
		var h hello
		if err := json.Unmarshal(body[1:], &h); err == nil && h.Error != "" {
			msg := fmt.Sprintf("worker %d could not restrict itself: %s", w.pid(), h.Error)
			if h.NoNamespaces && w.namespaces {
				return &unusableNamespaces{msg}
			}
			return errors.New(msg)
		}
	}
	return fmt.Errorf("worker %d: malformed ready frame", w.pid())
}

// put keeps w for its tool's next call.
func (p *Pool) put(w *worker) { p.putAnswered(w, 0, false) }

// putAnswered is put for a worker that answered a call it held for
// held: its tool's busyFor learns it, if timed.
func (p *Pool) putAnswered(w *worker, held time.Duration, timed bool) {
	w.unhold()
	p.mu.Lock()
	if timed {
		p.busyFor[w.key] = average(p.busyFor[w.key], held)
	}
	p.keep(w)
	p.wake()
	p.mu.Unlock()
}

// fastest returns the shorter of least and d, or d when least is 0, none
// yet; never 0.
func fastest(least, d time.Duration) time.Duration {
	d = max(d, 1)
	if least == 0 {
		return d
	}
	return min(least, d)
}

// average returns the moving average avg with the new sample d, which
// weighs an eighth; d alone when avg is 0, no sample yet.
func average(avg, d time.Duration) time.Duration {
	if avg == 0 {
		return max(d, 1)
	}
	return avg + (d-avg)/8
}

// keep hands w to the call that has waited longest for one of its
// tool's workers, or makes it idle for the tool's next call, or kills it
// once the pool is closed. Call with p.mu held.
func (p *Pool) keep(w *worker) {
	if p.closed {
		w.kill()
		return
	}
	if q := p.queue[w.key]; len(q) > 0 {
		first := q[0]
		p.unqueue(w.key, first)
		first.w = w
		close(first.handed)
		return
	}
	w.idleSince = time.Now()
	w.idle = true
	if w.pauseTimer == nil {
		w.pauseTimer = time.AfterFunc(pauseAfter, func() { p.pauseIdle(w) })
	} else {
		w.pauseTimer.Reset(pauseAfter)
	}
	p.idle[w.key] = append(p.idle[w.key], w)
}

// pauseAfter is how long a worker is idle before it is stopped (see
// worker.pause): a tool's calls in a row, a model's or a client's, find
// it running, and what a tool leaves running goes on this long at most
// after its call.
const pauseAfter = 20 * time.Millisecond

// pauseIdle stops w if it is still idle, unless the pool is closed or w
// is being killed.
func (p *Pool) pauseIdle(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || !w.idle || w.paused || w.killed.Load() {
		return
	}
	p.settlePause(w, w.pause())
	w.paused = true
}

// settlePause acts on what pause or check found of w: a worker still
// running a thread is looked at again after pauseAfter, while it stays
// idle and paused. Call with p.mu held.
func (p *Pool) settlePause(w *worker, st pauseState) {
	switch st {
	case pauseKilled:
		p.log.Warn("a tool started a program after its call was answered; its worker is ended", "tool", w.key.id, "caps", w.key.caps.String())
	case pauseUnsettled:
		time.AfterFunc(pauseAfter, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if !p.closed && w.idle && w.paused && !w.killed.Load() {
				p.settlePause(w, w.check())
			}
		})
	}
}

// reapIdle ends the workers idle for longer than the idle timeout, until
// the pool closes.
func (p *Pool) reapIdle() {
	defer p.procs.Done()
	t := time.NewTicker(max(p.cfg.IdleTimeout/4, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case now := <-t.C:
			p.mu.Lock()
			old := p.takeExpired(now)
			p.mu.Unlock()
			for _, w := range old {
				w.kill()
			}
		}
	}
}

// takeExpired takes out of p.idle, and returns, the workers that have
// been idle for the idle timeout or longer at now. Each tool's idle
// workers are in the order they went idle. Call with p.mu held.
func (p *Pool) takeExpired(now time.Time) []*worker {
	var old []*worker
	for k, ws := range p.idle {
		n := 0
		for n < len(ws) && now.Sub(ws[n].idleSince) >= p.cfg.IdleTimeout {
			n++
		}
		old = append(old, ws[:n]...)
		if n == len(ws) {
			delete(p.idle, k)
		} else {
			p.idle[k] = ws[n:]
		}
	}
	return old
}

// start starts a worker for k and waits for its hello. It is called
// holding a slot, counted in p.count, which it gives back when no
// process starts; once one has, the goroutine that reaps it gives it
// back.
func (p *Pool) start(ctx context.Context, k workerKey) (*worker, error) {
	began := time.Now()
	w, err := p.launch(k, false)
	if err != nil {
		return nil, err
	}
	w, err = p.assign(ctx, w)
	if err == nil {
		took := time.Since(began)
		p.mu.Lock()
		p.fastestStart = fastest(p.fastestStart, took)
		p.mu.Unlock()
	}
	if p.namespacesUnusable(err) {
		// The worker that said so frees its slot when it is reaped; the
		// caller starts another, without namespaces, as any start: its
		// slot may go to another start meanwhile.
		return nil, errNamespacesUnusable
	}
	return w, err
}

// errNamespacesUnusable is the error of start whose worker found that
// namespaces cannot work here: later workers start without them, and the
// caller tries once more (see get, startAhead).
var errNamespacesUnusable = errors.New("namespaces cannot work here: try again without")

// unusableNamespaces is the error of a worker whose namespaces cannot
// work on this machine (see hello.NoNamespaces).
type unusableNamespaces struct{ msg string }

func (e *unusableNamespaces) Error() string { return e.msg }

// namespacesUnusable reports whether err says that workers cannot have
// namespaces of their own on this machine, and if so starts every later
// worker without them, as where the kernel refuses them (see launch),
// and says so once.
func (p *Pool) namespacesUnusable(err error) bool {
	var u *unusableNamespaces
	if !errors.As(err, &u) {
		return false
	}
	if !p.noNamespaces.Swap(true) {
		p.log.Warn("tool workers run without namespaces of their own: they cannot work here", "error", u.msg)
	}
	return true
}

// launch starts a worker process for k, or a spare for no tool yet,
// without waiting for it: its temp directory, its pipes, and the
// environment every worker gets. It is called holding a slot, counted
// in p.count for k or in p.nspares, which it gives back when no process
// starts; once one has, the goroutine that reaps it gives it back.
func (p *Pool) launch(k workerKey, spare bool) (*worker, error) {
	failEarly := func(format string, args ...any) (*worker, error) {
		if spare {
			p.mu.Lock()
			p.nspares--
			p.mu.Unlock()
			<-p.slots
		} else {
			p.release(k)
		}
		return nil, callError(k.id, registry.KindNotStarted, format, args...)
	}
	tempDir, err := os.MkdirTemp(p.cfg.TempDir, "toolreg-worker-")
	if err != nil {
		return failEarly("the worker's temp directory: %v", err)
	}
	var pipes []*os.File // reqR, reqW, respR, respW, errR, errW
	for range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(pipes...)
			os.RemoveAll(tempDir)
			return failEarly("pipe: %v", err)
		}
		pipes = append(pipes, r, w)
	}
	reqR, reqW, respR, respW, errR, errW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	// The version-control directories the worker will find and make
	// read-only.
	vcs := p.vcsPresent()
	// What every worker gets; its tool's capabilities add the rest when
	// it is assigned.
	env := append(workerEnv(p.cfg.Environ, nil, p.cfg.Pass, 0, tempDir), boundingEnv+"=drop")
	start := func(namespaces bool) (*exec.Cmd, error) {
		s := spec{workDir: p.cfg.WorkDir, tempDir: tempDir, namespaces: namespaces, limits: p.cfg.Limits}
		if vcs&nestedKnown != 0 {
			s.vcs, s.vcsPartial = p.nested.dirs, p.nested.note != ""
		}
		s.hide, s.protect = p.cfg.Hide, p.cfg.Protect
		cmd := &exec.Cmd{
			Path:        p.cfg.Executable,
			Args:        append([]string{p.cfg.Executable, p.cfg.Arg}, s.args()...),
			Env:         env,
			Dir:         p.cfg.WorkDir,
			Stdout:      errW,
			Stderr:      errW,
			ExtraFiles:  []*os.File{reqR, respW},
			SysProcAttr: sysProcAttr(namespaces),
		}
		if namespaces {
			return cmd, startInNamespaces(cmd.Start)
		}
		return cmd, cmd.Start()
	}
	namespaces := !p.noNamespaces.Load()
	cmd, err := start(namespaces)
	if err != nil && namespaces && namespacesRefused(err) {
		if !p.noNamespaces.Swap(true) {
			p.log.Warn("tool workers run without namespaces of their own: the kernel refused them", "error", err)
		}
		namespaces = false
		cmd, err = start(false)
	}
	closeAll(reqR, respW, errW)
	if err != nil {
		closeAll(reqW, respR, errR)
		os.RemoveAll(tempDir)
		return failEarly("starting %s: %v", p.cfg.Executable, err)
	}
	req, err := newPoolPipe(reqW)
	var resp *poolPipe
	if err == nil {
		resp, err = newPoolPipe(respR)
	}
	if err != nil {
		// Not for a pipe os.Pipe made; the process is killed and reaped
		// as any that failed.
		killGroup(cmd.Process)
		_ = cmd.Wait()
		closeAll(reqW, respR, errR)
		os.RemoveAll(tempDir)
		return failEarly("the worker's pipes: %v", err)
	}
	w := &worker{
		key:        k,
		spare:      spare,
		vcs:        vcs,
		namespaces: namespaces,
		cmd:        cmd,
		tempDir:    tempDir,
		reqW:       reqW,
		req:        req,
		respF:      respR,
		errF:       errR,
		resp:       bufio.NewReaderSize(resp, 64<<10),
		exited:     make(chan struct{}),
		tail:       &tail{max: 8 << 10},
	}
	p.mu.Lock()
	if p.closed {
		// Close has ended the pool's workers and may be waiting for its
		// goroutines already: this one is ended here, and adds none.
		p.mu.Unlock()
		killGroup(cmd.Process)
		_ = cmd.Wait()
		closeAll(reqW, respR, errR)
		os.RemoveAll(tempDir)
		return failEarly("the pool is closed")
	}
	p.live[w] = struct{}{}
	p.procs.Add(2)
	p.mu.Unlock()
	drained := make(chan struct{})
	go func() {
		defer p.procs.Done()
		defer close(drained)
		w.drain(errR, p.log)
	}()
	go func() {
		defer p.procs.Done()
		w.reap(drained)
		p.mu.Lock()
		delete(p.live, w)
		p.mu.Unlock()
		p.releaseWorker(w)
	}()
	return w, nil
}

// assign tells the worker w, started for w.key or given it as a spare,
// its tool, capabilities and environment, and waits for its hello: the
// restrictions it has in force.
func (p *Pool) assign(ctx context.Context, w *worker) (*worker, error) {
	id, caps := w.key.id, w.key.caps
	fail := func(kind registry.Kind, format string, args ...any) (*worker, error) {
		w.kill()
		return nil, callError(id, kind, format, args...)
	}
	a := assignment{Tool: id, Caps: caps.String(), Env: assignedEnv(p.cfg.Environ, p.cfg.Env, p.cfg.Pass, caps)}
	frame, err := assignFrame(a)
	if err != nil {
		return fail(registry.KindNotStarted, "%v", err)
	}
	stop := context.AfterFunc(ctx, w.kill)
	// A worker that died before it read the assignment fails below, when
	// its hello does not come.
	_, _ = writeFrame(w.req, nil, frame)
	body, err := readFrame(w.resp, nil)
	if err == nil && !w.ready && len(body) == 1 && body[0] == frameReady {
		w.ready = true
		body, err = readFrame(w.resp, nil)
	}
	if !stop() {
		<-w.exited
		return nil, ctxError(id, ctx.Err())
	}
	if err != nil {
		w.kill()
		<-w.exited
		return fail(registry.KindNotStarted, "worker %d exited before it was ready: %s", w.pid(), w.exitMessage())
	}
	var h hello
	if len(body) < 1 || body[0] != frameHello {
		return fail(registry.KindNotStarted, "worker %d: malformed hello frame", w.pid())
	}
	if err := json.Unmarshal(body[1:], &h); err != nil {
		return fail(registry.KindNotStarted, "worker %d: hello: %v", w.pid(), err)
	}
	if h.Error != "" {
		if h.NoNamespaces && w.namespaces {
			w.kill()
			return nil, &unusableNamespaces{fmt.Sprintf("worker %d could not restrict itself: %s", w.pid(), h.Error)}
		}
		return fail(registry.KindNotStarted, "worker %d could not restrict itself: %s", w.pid(), h.Error)
	}
	w.enf = h.Enforcement
	w.enf.Missing = append(w.enf.Missing, placeGaps(caps, p.cfg.WorkDir, p.cfg.Home, p.homeInWork, p.unprotected)...)
	if !w.enf.Enforced() {
		if p.cfg.Require {
			return fail(registry.KindRefused, "sandbox refused: %s=1 and the restrictions for %s are not enforced here: %s", RequireEnv, caps, strings.Join(w.enf.Missing, "; "))
		}
		p.mu.Lock()
		warned := p.warned[caps]
		p.warned[caps] = true
		p.mu.Unlock()
		if !warned {
			p.log.Warn("tool restrictions not enforced", "caps", caps.String(), "os", w.enf.OS, "landlock_abi", w.enf.LandlockABI, "missing", strings.Join(w.enf.Missing, "; "))
		}
	}
	return w, nil
}

func ctxError(id string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return callError(id, registry.KindTimeout, "and its worker was killed: %w", err)
	}
	return callError(id, registry.KindCancelled, "its worker was killed: %w", err)
}

// kindOf is the kind of a call ended by its context's error err.
func kindOf(err error) registry.Kind {
	if errors.Is(err, context.DeadlineExceeded) {
		return registry.KindTimeout
	}
	return registry.KindCancelled
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// worker is the pool's side of one worker process.
type worker struct {
	key   workerKey // under Pool.mu while it may be a spare
	spare bool      // started ahead and not yet given a tool; under Pool.mu
	ready bool      // its ready frame has been read
	vcs   uint8     // the vcsDirs in the workspace when it started (Pool.vcsPresent)
	// held, set while w is a spare given its tool that holds back the
	// spare to take its place (see assignSpare), is called by whoever
	// holds w when its first call ends, or when it is put back.
	held       func()
	namespaces bool // started in namespaces of its own
	cmd        *exec.Cmd
	enf        Enforcement
	tempDir    string
	idleSince  time.Time // when it was last put back; under Pool.mu
	// idle is set while the pool keeps w for its tool's next call, and
	// paused once it has stopped it there (see pause); pauseTimer stops
	// it pauseAfter after it was last put back. Under Pool.mu.
	idle, paused bool
	pauseTimer   *time.Timer
	reqW         *os.File
	req          *poolPipe // reqW, written with raw system calls
	respF        *os.File
	errF         *os.File
	resp         *bufio.Reader
	wbuf         []byte
	rbuf         []byte
	tail         *tail

	mu     sync.Mutex
	reaped bool // the process is gone: its id may belong to another
	killed atomic.Bool
	exited chan struct{} // closed when reaped and its stderr drained
}

func (w *worker) pid() int { return w.cmd.Process.Pid }

// kill kills the worker's process group, once it matters and as long as
// its id is still its own.
func (w *worker) kill() {
	w.killed.Store(true)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.reaped {
		killGroup(w.cmd.Process)
	}
}

// pause stops the worker's process group once the pool has kept it
// idle for pauseAfter, and resume continues it for a call: a worker runs
// only during its tool's calls and shortly after. Nothing its tool left
// running (a goroutine, a program it started) goes on between them.
//
// The worker ended what its call started before it answered, so a
// process it has once stopped was started after the answer, by a
// goroutine the tool left behind, perhaps in a session of its own that
// the stop does not reach (and that would continue the worker: SIGCONT
// to the init of a PID namespace is not dropped). Such a worker is
// killed instead, and with it, the init, its namespace (check).
func (w *worker) pause() pauseState {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reaped {
		return pauseAlone
	}
	stopGroup(w.cmd.Process)
	return w.checkLocked()
}

// pauseState is what pause and check found of a stopped worker.
type pauseState int

const (
	pauseAlone     pauseState = iota // stopped, without a child
	pauseKilled                      // it had a child, and is killed
	pauseUnsettled                   // a thread still runs: check again later
)

// check stops again, and looks again at, a worker pause left unsettled.
func (w *worker) check() pauseState {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reaped {
		return pauseAlone
	}
	stopGroup(w.cmd.Process)
	return w.checkLocked()
}

func (w *worker) checkLocked() pauseState {
	switch alone, settled := stoppedAlone(w.pid()); {
	case !settled:
		return pauseUnsettled
	case alone:
		return pauseAlone
	}
	killGroup(w.cmd.Process)
	w.killed.Store(true)
	return pauseKilled
}

func (w *worker) resume() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.reaped {
		continueGroup(w.cmd.Process)
	}
}

// reap waits for the process to exit, kills what is left of its group,
// reaps it, closes its pipes and removes its temp directory. It never
// waits long on the stderr pipe: a process that left the group (where
// the worker has no PID namespace) may hold it open.
func (w *worker) reap(drained <-chan struct{}) {
	if waitExited(w.cmd.Process) {
		w.mu.Lock()
		killGroup(w.cmd.Process)
		w.reaped = true
		w.mu.Unlock()
	}
	_ = w.cmd.Wait()
	w.mu.Lock()
	w.reaped = true
	w.mu.Unlock()
	// The group is dead, so stderr ends; a grandchild that left the
	// group may keep it open, so do not wait for ever.
	t := time.NewTimer(time.Second)
	select {
	case <-drained:
	case <-t.C:
	}
	t.Stop()
	closeAll(w.reqW, w.respF, w.errF) // closing errF ends a drain still reading
	<-drained
	_ = removeTree(w.tempDir) // what a tool left there goes with its worker
	close(w.exited)
}

// drain forwards the worker's stdout and stderr to the log, at debug
// level, and keeps the tail for crash reports.
func (w *worker) drain(f *os.File, log *slog.Logger) {
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	pid := w.pid()
	for sc.Scan() {
		line := sc.Text()
		w.tail.add(line)
		log.Debug("tool worker output", "pid", pid, "line", line)
	}
}

// exitMessage describes how the worker ended, with the panic or fatal
// error line from its stderr when there is one. Call after exited.
func (w *worker) exitMessage() string {
	msg := "exited"
	if st := w.cmd.ProcessState; st != nil {
		msg = st.String()
	}
	if f := w.tail.fault(); f != "" {
		msg += ": " + f
	}
	return msg
}

// call sends one request and reads its answer. keep says whether the
// worker can serve another call.
func (w *worker) call(ctx context.Context, id string, args []byte, release bool) (text string, err error, keep bool) {
	var deadline int64
	if d, ok := ctx.Deadline(); ok {
		deadline = d.UnixNano()
	}
	hdr, err := requestHeader(deadline, id, release)
	if err != nil {
		return "", callError(id, registry.KindArguments, "%s", err), true
	}
	stop := context.AfterFunc(ctx, w.kill)
	defer w.trimBuffers()
	w.wbuf, err = writeFrame(w.req, w.wbuf, hdr, args)
	if errors.Is(err, errFrameTooLarge) {
		stop()
		return "", callError(id, registry.KindArguments, "%s", err), true
	}
	var forwarded throttle // the progress reports passed on
	for err == nil {
		w.rbuf, err = readFrame(w.resp, w.rbuf)
		if err != nil || len(w.rbuf) == 0 || w.rbuf[0] != frameProgress {
			break
		}
		// The tool's progress, before its answer: to the caller's
		// progress function, as in process. The worker throttles it, but
		// the tool runs there and can write frames itself: the throttle
		// that holds is this one.
		done, total, msg, perr := parseProgress(w.rbuf)
		if perr != nil {
			err = perr
			break
		}
		if forwarded.pass(time.Now(), done, total) {
			tool.Progress(ctx, done, total, msg)
		}
	}
	fired := !stop()
	if err == nil {
		kind, text, perr := parseResponse(w.rbuf)
		if perr == nil {
			if kind == 0 {
				return text, nil, !fired
			}
			return "", callError(id, kind, "%s", text), !fired
		}
		err = perr
	}
	if fired || ctx.Err() != nil {
		w.kill()
		return "", ctxError(id, ctx.Err()), false
	}
	w.kill()
	<-w.exited
	return "", callError(id, registry.KindCrashed, "worker %d %s (%v)", w.pid(), w.exitMessage(), err), false
}

// keptBuffer is the most of its frame buffers a worker keeps between
// calls: a frame may be 64 MiB, and a tool that answers with that much
// would otherwise make the agent hold it for each of its workers, outside
// every limit of theirs, until they idle out.
const keptBuffer = 1 << 20

// trimBuffers lets go of w's frame buffers when a call made them larger
// than keptBuffer.
func (w *worker) trimBuffers() {
	if cap(w.rbuf) > keptBuffer {
		w.rbuf = nil
	}
	if cap(w.wbuf) > keptBuffer {
		w.wbuf = nil
	}
}

// crashSignal matches the line the Go runtime writes when a signal
// crashes the program, such as "SIGSEGV: segmentation violation".
var crashSignal = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^SIG[A-Z]+: `) })

// tail keeps the last lines a worker wrote, and the last line that
// reports a fault.
type tail struct {
	mu       sync.Mutex
	max      int
	buf      bytes.Buffer
	lastFail string
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") || crashSignal().MatchString(line) {
		t.lastFail = line
	}
	t.buf.WriteString(line)
	t.buf.WriteByte('\n')
	if t.buf.Len() > t.max {
		b := t.buf.Bytes()
		cut := len(b) - t.max
		if i := bytes.IndexByte(b[cut:], '\n'); i >= 0 {
			cut += i + 1
		}
		t.buf.Next(cut)
	}
}

func (t *tail) fault() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastFail
}

// String returns the kept lines.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
