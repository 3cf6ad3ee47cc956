package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
	// TempDir is the other directory tools with tool.WriteFiles may
	// write, and the workers' TMPDIR; os.TempDir() when empty.
	TempDir string
	// Environ is the environment the workers' variables are taken from;
	// os.Environ() when nil.
	Environ []string
	// Env names the variables the tools are configured with (such as
	// SEARXNG_URL); only workers whose tools declare tool.Env get them.
	// LLM_API_KEY is never passed.
	Env []string
	// Pass names variables every worker gets whatever its capabilities:
	// settings that are no secret, such as the egress allow list.
	Pass []string
	// MaxIdle is how many idle workers are kept per capability set; 2
	// when zero.
	MaxIdle int
	// Require refuses to run a tool whose restrictions cannot all be
	// enforced (KindRefused) instead of logging a warning once per
	// capability set.
	Require bool
	// Logger receives the pool's messages and, at debug level, the
	// workers' stderr; slog.Default() when nil.
	Logger *slog.Logger
}

// Pool runs tools in worker processes: re-executions of the program
// that restrict themselves to the capabilities of the tools they run,
// kept warm and reused, a few per capability set. A call whose context
// ends kills its worker's process group; a worker that dies during a
// call fails that call; a fresh worker takes the place of either.
type Pool struct {
	cfg    Config
	log    *slog.Logger
	ctx    context.Context // ends when the pool closes
	cancel context.CancelFunc

	mu        sync.Mutex
	closed    bool
	idle      map[tool.Capability][]*worker
	live      map[*worker]struct{}
	refilling map[tool.Capability]bool
	warned    map[tool.Capability]bool

	procs   sync.WaitGroup // the goroutines that reap workers and drain their stderr
	refills sync.WaitGroup // the goroutines that start replacement workers
}

// NewPool checks c and returns a pool; workers start on demand.
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
	if c.Environ == nil {
		c.Environ = os.Environ()
	}
	if c.MaxIdle <= 0 {
		c.MaxIdle = 2
	}
	log := c.Logger
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool{
		cfg: c, log: log, ctx: ctx, cancel: cancel,
		idle:      map[tool.Capability][]*worker{},
		live:      map[*worker]struct{}{},
		refilling: map[tool.Capability]bool{},
		warned:    map[tool.Capability]bool{},
	}, nil
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

// Call runs tool id with args in a worker restricted to caps. A failure
// is an *Error.
func (p *Pool) Call(ctx context.Context, id string, caps tool.Capability, args []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", ctxError(id, err)
	}
	w, err := p.get(ctx, caps, id)
	if err != nil {
		return "", err
	}
	text, err, keep := w.call(ctx, id, args)
	if keep {
		p.put(w)
		return text, err
	}
	w.kill()
	var e *Error
	if errors.As(err, &e) && e.Kind == KindCrashed {
		p.log.Error("tool worker died during a call", "tool", id, "caps", caps.String(), "pid", w.pid(), "error", e.Msg, "stderr", w.tail.String())
	}
	p.refill(caps)
	return text, err
}

// Enforcement starts or reuses a worker for caps and returns what it
// enforces. Check tells the same without starting one.
func (p *Pool) Enforcement(ctx context.Context, caps tool.Capability) (Enforcement, error) {
	w, err := p.get(ctx, caps, "")
	if err != nil {
		return Enforcement{}, err
	}
	p.put(w)
	return w.enf, nil
}

// Warm starts a worker for each of caps that has none idle.
func (p *Pool) Warm(ctx context.Context, caps ...tool.Capability) error {
	for _, c := range caps {
		if _, err := p.Enforcement(ctx, c); err != nil {
			return err
		}
	}
	return nil
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
	p.idle = map[tool.Capability][]*worker{}
	p.mu.Unlock()
	p.cancel()
	p.refills.Wait()
	p.mu.Lock()
	for w := range p.live {
		live = append(live, w)
	}
	p.mu.Unlock()
	for _, w := range live {
		w.kill()
	}
	p.procs.Wait()
	return nil
}

// get pops an idle worker for caps that is still alive, or starts one.
func (p *Pool) get(ctx context.Context, caps tool.Capability, id string) (*worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, &Error{Tool: id, Kind: KindStart, Msg: "the pool is closed"}
	}
	for ws := p.idle[caps]; len(ws) > 0; ws = p.idle[caps] {
		w := ws[len(ws)-1]
		p.idle[caps] = ws[:len(ws)-1]
		select {
		case <-w.exited:
			continue
		default:
		}
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return p.start(ctx, caps, id)
}

// put keeps w for the next call, or kills it when enough are idle.
func (p *Pool) put(w *worker) {
	p.mu.Lock()
	if p.closed || len(p.idle[w.caps]) >= p.cfg.MaxIdle {
		p.mu.Unlock()
		w.kill()
		return
	}
	p.idle[w.caps] = append(p.idle[w.caps], w)
	p.mu.Unlock()
}

// refill starts a worker for caps in the background, unless enough are
// idle or one is already starting.
func (p *Pool) refill(caps tool.Capability) {
	p.mu.Lock()
	if p.closed || p.refilling[caps] || len(p.idle[caps]) >= p.cfg.MaxIdle {
		p.mu.Unlock()
		return
	}
	p.refilling[caps] = true
	p.refills.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.refills.Done()
		w, err := p.start(p.ctx, caps, "")
		p.mu.Lock()
		p.refilling[caps] = false
		p.mu.Unlock()
		if err != nil {
			if p.ctx.Err() == nil {
				p.log.Warn("starting a replacement tool worker", "caps", caps.String(), "error", err)
			}
			return
		}
		p.put(w)
	}()
}

// start starts a worker for caps and waits for its hello.
func (p *Pool) start(ctx context.Context, caps tool.Capability, id string) (*worker, error) {
	fail := func(kind Kind, format string, args ...any) (*worker, error) {
		return nil, &Error{Tool: id, Kind: kind, Msg: fmt.Sprintf(format, args...)}
	}
	s := spec{caps: caps, workDir: p.cfg.WorkDir, tempDir: p.cfg.TempDir}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return fail(KindStart, "request pipe: %v", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return fail(KindStart, "response pipe: %v", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		return fail(KindStart, "stderr pipe: %v", err)
	}
	env := workerEnv(p.cfg.Environ, p.cfg.Env, p.cfg.Pass, caps, p.cfg.TempDir)
	if env == nil {
		env = []string{} // nil would pass the whole environment
	}
	cmd := &exec.Cmd{
		Path:        p.cfg.Executable,
		Args:        append([]string{p.cfg.Executable, p.cfg.Arg}, s.args()...),
		Env:         env,
		Dir:         p.cfg.WorkDir,
		Stdout:      errW,
		Stderr:      errW,
		ExtraFiles:  []*os.File{reqR, respW},
		SysProcAttr: sysProcAttr(),
	}
	err = cmd.Start()
	reqR.Close()
	respW.Close()
	errW.Close()
	if err != nil {
		reqW.Close()
		respR.Close()
		errR.Close()
		return fail(KindStart, "starting %s: %v", p.cfg.Executable, err)
	}
	w := &worker{
		caps:   caps,
		cmd:    cmd,
		reqW:   reqW,
		respF:  respR,
		resp:   bufio.NewReaderSize(respR, 64<<10),
		exited: make(chan struct{}),
		tail:   &tail{max: 8 << 10},
	}
	p.mu.Lock()
	p.live[w] = struct{}{}
	p.mu.Unlock()
	drained := make(chan struct{})
	p.procs.Add(2)
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
	}()

	stop := context.AfterFunc(ctx, w.kill)
	body, err := readFrame(w.resp, nil)
	if !stop() {
		<-w.exited
		return nil, ctxError(id, ctx.Err())
	}
	if err != nil {
		w.kill()
		<-w.exited
		return fail(KindStart, "worker %d exited before it was ready: %s", w.pid(), w.exitMessage())
	}
	var h hello
	if len(body) < 1 || body[0] != frameHello {
		w.kill()
		return fail(KindStart, "worker %d: malformed hello frame", w.pid())
	}
	if err := json.Unmarshal(body[1:], &h); err != nil {
		w.kill()
		return fail(KindStart, "worker %d: hello: %v", w.pid(), err)
	}
	if h.Error != "" {
		w.kill()
		return fail(KindStart, "worker %d could not restrict itself: %s", w.pid(), h.Error)
	}
	w.enf = h.Enforcement
	if !w.enf.Enforced() {
		if p.cfg.Require {
			w.kill()
			return fail(KindRefused, "%s=1 and the restrictions for %s are not enforced here: %s", RequireEnv, caps, strings.Join(w.enf.Missing, "; "))
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
	k := KindCancelled
	if errors.Is(err, context.DeadlineExceeded) {
		k = KindTimeout
	}
	return &Error{Tool: id, Kind: k, Msg: "the worker was killed", Err: err}
}

// worker is the pool's side of one worker process.
type worker struct {
	caps  tool.Capability
	cmd   *exec.Cmd
	enf   Enforcement
	reqW  *os.File
	respF *os.File
	resp  *bufio.Reader
	wbuf  []byte
	rbuf  []byte
	tail  *tail

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

// reap waits for the process to exit, kills what is left of its group,
// reaps it and closes its pipes.
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
	w.reqW.Close()
	w.respF.Close()
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
func (w *worker) call(ctx context.Context, id string, args []byte) (text string, err error, keep bool) {
	var deadline int64
	if d, ok := ctx.Deadline(); ok {
		deadline = d.UnixNano()
	}
	hdr, err := requestHeader(deadline, id)
	if err != nil {
		return "", &Error{Tool: id, Kind: KindBadArguments, Msg: err.Error()}, true
	}
	stop := context.AfterFunc(ctx, w.kill)
	w.wbuf, err = writeFrame(w.reqW, w.wbuf, hdr, args)
	if errors.Is(err, errFrameTooLarge) {
		stop()
		return "", &Error{Tool: id, Kind: KindBadArguments, Msg: err.Error()}, true
	}
	if err == nil {
		w.rbuf, err = readFrame(w.resp, w.rbuf)
	}
	fired := !stop()
	if err == nil {
		kind, text, perr := parseResponse(w.rbuf)
		if perr == nil {
			if kind == 0 {
				return text, nil, !fired
			}
			return "", &Error{Tool: id, Kind: kind, Msg: text}, !fired
		}
		err = perr
	}
	if fired || ctx.Err() != nil {
		w.kill()
		return "", ctxError(id, ctx.Err()), false
	}
	w.kill()
	<-w.exited
	return "", &Error{Tool: id, Kind: KindCrashed, Msg: fmt.Sprintf("worker %d %s (%v)", w.pid(), w.exitMessage(), err)}, false
}

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
	if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
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
