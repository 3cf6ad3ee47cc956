package registry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// The call path of tools, without a channel, a timer or a
// context.WithTimeout made per call: a call runs on its own goroutine with
// a reusable job (its arguments buffer, its timer, its answer channel),
// and the tool sees a small context of its own that ends at the tool's
// timeout or with the caller's context. A tool that ignores its context
// keeps its goroutine and its job until it returns; Call answers at the
// deadline all the same.

// maxKeptArgs is the largest arguments buffer a job keeps for reuse.
const maxKeptArgs = 64 << 10

// runner holds the reusable jobs of the calls of one tool set.
type runner struct {
	jobs sync.Pool
}

func newRunner() *runner {
	r := &runner{}
	r.jobs.New = func() any {
		j := &job{answer: make(chan outcome, 1), expired: make(chan *callCtx, 1)}
		j.timer = time.AfterFunc(time.Hour, j.expire)
		j.timer.Stop()
		return j
	}
	return r
}

// job is one call in flight, reused across calls once the tool returned.
type job struct {
	invoke  func(ctx context.Context, args []byte) (string, error)
	args    []byte
	answer  chan outcome  // the tool's outcome, buffered
	expired chan *callCtx // a call whose timeout fired, buffered
	timer   *time.Timer   // fires expire at the tool's timeout

	mu  sync.Mutex
	cur *callCtx // the call the timer belongs to; nil between calls
}

// expire ends the current call at its timeout.
func (j *job) expire() {
	j.mu.Lock()
	c := j.cur
	j.mu.Unlock()
	// A firing of the timer's previous arm that ran late finds the job
	// serving another call, whose time has not come: it is ignored (timers
	// never fire early on the monotonic clock).
	if c == nil || time.Now().Before(c.expiresAt) {
		return
	}
	c.cancel(context.DeadlineExceeded, errDeadline)
	select {
	case j.expired <- c:
	default:
	}
}

// outcome is what a tool's goroutine reports.
type outcome struct {
	text  string
	err   error
	stack []byte
}

// run calls the tool, turns a panic or runtime.Goexit into an outcome,
// answers, and recycles j unless the caller gave up on it, in which case
// the caller has forgotten j and it is recycled here.
func (r *runner) run(j *job) {
	c := j.cur
	var o outcome
	returned := false
	defer func() {
		if p := recover(); p != nil {
			o = outcome{err: &Error{Kind: KindPanic, Err: fmt.Errorf("%v", p)}, stack: debug.Stack()}
		} else if !returned {
			o = outcome{err: &Error{Kind: KindPanic, Err: errors.New("the tool called runtime.Goexit")}, stack: debug.Stack()}
		}
		j.timer.Stop()
		j.mu.Lock()
		j.cur = nil
		j.mu.Unlock()
		c.cancel(context.Canceled, errCallOver) // the call is over: its context ends
		j.answer <- o
		if c.abandoned() {
			r.recycle(j)
		}
	}()
	o.text, o.err = j.invoke(c, j.args)
	returned = true
}

// recycle returns j, whose answer nobody took, to the pool.
func (r *runner) recycle(j *job) {
	<-j.answer
	r.recycleAnswered(j)
}

// call runs invoke with args under parent, ending it after timeout. It
// returns the tool's outcome; or, when the timeout or parent ends first,
// expired true and the context whose cause tells which.
func (r *runner) call(parent context.Context, timeout time.Duration, invoke func(context.Context, []byte) (string, error), args string) (o outcome, expired bool, c *callCtx) {
	j := r.jobs.Get().(*job)
	j.invoke = invoke
	j.args = append(j.args[:0], args...)
	now := time.Now()
	c = &callCtx{parent: parent, deadline: now.Add(timeout), expiresAt: now.Add(timeout)}
	if d, ok := parent.Deadline(); ok && d.Before(c.deadline) {
		c.deadline = d
	}
	j.mu.Lock()
	j.cur = c
	j.mu.Unlock()
	j.timer.Reset(timeout)
	go r.run(j)
	for {
		select {
		case o = <-j.answer:
			r.recycleAnswered(j)
			return o, false, c
		case <-j.expired:
			if !c.ended() {
				// A stale timeout of an earlier call of this job (and
				// this call's own, if it was dropped for it, has ended
				// c already).
				continue
			}
		case <-parent.Done():
			c.cancel(parent.Err(), cmp.Or(context.Cause(parent), parent.Err()))
		}
		// The call ran out of time. The tool may have answered at the
		// same moment: prefer its answer.
		select {
		case o = <-j.answer:
			r.recycleAnswered(j)
			return o, false, c
		default:
		}
		if c.abandon() {
			return outcome{}, true, c
		}
		// The tool finished while we gave up: its answer is on its way.
		o = <-j.answer
		r.recycleAnswered(j)
		return o, false, c
	}
}

// recycleAnswered returns j, whose answer the caller took, to the pool.
func (r *runner) recycleAnswered(j *job) {
	select {
	case <-j.expired:
	default:
	}
	j.invoke = nil
	if cap(j.args) > maxKeptArgs {
		j.args = nil
	}
	j.args = j.args[:0]
	r.jobs.Put(j)
}

// callCtx is the context a tool sees: the caller's values, a deadline at
// the tool's timeout, and a Done channel made only when the tool asks for
// it. One is made per call and never reused, so a tool that keeps it sees
// it ended.
type callCtx struct {
	parent   context.Context
	deadline time.Time
	// expiresAt is when the tool's timeout ends the call (deadline may be
	// the caller's, sooner); it keeps its monotonic clock reading.
	expiresAt time.Time

	mu    sync.Mutex
	done  chan struct{}
	err   error
	cause error
	// state: 0 running, 1 the tool returned, 2 the caller gave up.
	state int
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (c *callCtx) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *callCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		if c.err != nil {
			c.done = closedChan
		} else {
			c.done = make(chan struct{})
		}
	}
	return c.done
}

func (c *callCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		// The caller's context may have ended before anyone noticed.
		if err := c.parent.Err(); err != nil {
			return err
		}
	}
	return c.err
}

func (c *callCtx) Value(key any) any { return c.parent.Value(key) }

// cancel ends c with err (and cause, for the registry), unless it ended
// already.
func (c *callCtx) cancel(err, cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err, c.cause = err, cause
	if c.done != nil {
		close(c.done)
	}
}

// errCallOver is the cause of a call's context once the tool returned.
var errCallOver = errors.New("the call is over")

// ended reports whether c has ended.
func (c *callCtx) ended() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err != nil
}

// cutShort returns why c ended before the tool returned: errDeadline when
// the tool's timeout ended it, or the caller's cause; nil when it did not.
func (c *callCtx) cutShort() (err, cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil || c.cause == errCallOver {
		return nil, nil
	}
	return c.err, c.cause
}

// abandon records that the caller gave up on the call; it reports false
// when the tool has returned already.
func (c *callCtx) abandon() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == 1 {
		return false
	}
	c.state = 2
	return true
}

// abandoned records that the tool returned, and reports whether the
// caller gave up on the call before.
func (c *callCtx) abandoned() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == 2 {
		return true
	}
	c.state = 1
	return false
}
