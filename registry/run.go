package registry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"
)

// The call path of tools. A call runs on a call goroutine: a goroutine of the
// runner's pool, parked between calls, that owns what a call needs (an
// answer channel, a deadline timer). The caller takes an idle call
// goroutine (or starts one when none is idle), hands it the call, and
// waits for its answer, the tool's timeout or the end of its own context,
// whichever comes first. The tool sees a small context of its own, made
// per call, that ends at the tool's timeout or with the caller's context.
//
// A tool that ignores its context keeps its call goroutine until it returns; Call
// answers at the deadline all the same, and the next call is given another
// call goroutine, started if need be: a tool that never returns holds one
// goroutine and starves nobody. A call goroutine that stays idle for an idle
// period or two ends, so an idle runner holds no goroutine.
//
// Nothing is armed or stopped per call in the common case: a call goroutine's
// deadline timer is left running after a call, and a call that ends no
// sooner than the time the timer is armed for leaves it be; when it fires
// during a later call it is armed again for that call's deadline.

// goroutineIdle is how long an idle call goroutine waits for a call before it may
// end: it ends at the first check, made every goroutineIdle, that finds it
// idle and unused since the previous one.
const goroutineIdle = 50 * time.Millisecond

// runner holds the call goroutines of the calls of one tool set.
type runner struct {
	mu   sync.Mutex
	idle []*callGoroutine // parked call goroutines, the most recently used last
	live int              // call goroutines started and not ended
}

func newRunner() *runner { return &runner{} }

// callGoroutine is a goroutine that runs calls, one at a time, and what it keeps
// between them.
type callGoroutine struct {
	r  *runner
	in chan *callCtx // the next call; nil ends the call goroutine

	// Set by the caller before the call is handed over.
	e     *Entry
	x     Executor // runs e when not nil
	bound Run      // the call of e, bound by the caller, when x is nil
	args  string

	answer chan outcome // the notice of a timeout, then the outcome; room for both

	mu      sync.Mutex
	cur     *callCtx    // the call in flight; nil between calls
	timer   *time.Timer // fires expire; left armed between calls
	armedAt time.Time   // when timer fires; zero when it is not armed

	// Under r.mu.
	parked     bool // in r.idle
	dead       bool // ended
	used, seen uint // calls taken, and their number at the last check
	tick       *time.Timer
}

// outcome is what a tool's call goroutine reports, or, with expired set, the
// news that the timeout ended the call before the tool returned. For each
// call, the call goroutine's answer channel receives at most one such notice and
// then the tool's outcome: whoever takes the outcome has taken the notice
// too, so nothing stale is left for the next call.
type outcome struct {
	text    string
	media   []Media
	err     error
	stack   []byte
	expired bool
}

// get returns an idle call goroutine, or a new one, taken for one call.
func (r *runner) get() *callGoroutine {
	r.mu.Lock()
	if n := len(r.idle); n > 0 {
		w := r.idle[n-1]
		r.idle[n-1] = nil
		r.idle = r.idle[:n-1]
		w.parked = false
		w.used++
		r.mu.Unlock()
		return w
	}
	r.live++
	r.mu.Unlock()
	w := &callGoroutine{r: r, in: make(chan *callCtx, 1), answer: make(chan outcome, 2)}
	w.timer = time.AfterFunc(time.Hour, w.expire)
	w.timer.Stop()
	r.mu.Lock() // check reads w.tick under r.mu, and may run before this returns
	w.tick = time.AfterFunc(goroutineIdle, w.check)
	r.mu.Unlock()
	go w.loop()
	return w
}

// put parks w, whose answer has been taken, until the next call.
func (r *runner) put(w *callGoroutine) {
	w.e, w.x, w.bound, w.args = nil, nil, nil, ""
	r.mu.Lock()
	if !w.dead { // its tool called runtime.Goexit
		w.parked = true
		r.idle = append(r.idle, w)
	}
	r.mu.Unlock()
}

// counts returns the number of call goroutines alive, and of those parked.
func (r *runner) counts() (live, parked int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live, len(r.idle)
}

// check ends w when it stayed idle since the previous check.
func (w *callGoroutine) check() {
	r := w.r
	r.mu.Lock()
	if w.dead {
		r.mu.Unlock()
		return
	}
	if w.parked && w.used == w.seen {
		if i := slices.Index(r.idle, w); i >= 0 {
			r.idle = slices.Delete(r.idle, i, i+1)
		}
		w.parked, w.dead = false, true
		r.mu.Unlock()
		w.in <- nil
		return
	}
	w.seen = w.used
	tick := w.tick
	r.mu.Unlock()
	tick.Reset(goroutineIdle)
}

// loop runs the calls handed to w until it is told to end.
func (w *callGoroutine) loop() {
	for c := range w.in {
		if c == nil {
			w.r.mu.Lock()
			w.r.live--
			w.r.mu.Unlock()
			w.mu.Lock()
			w.timer.Stop()
			w.armedAt = time.Time{}
			w.mu.Unlock()
			return
		}
		w.run(c)
	}
}

// run calls the tool, turns a panic or runtime.Goexit into an outcome and
// answers. When the caller gave up on the call, w parks itself; otherwise
// the caller parks it once it took the answer.
func (w *callGoroutine) run(c *callCtx) {
	var o outcome
	returned := false
	defer func() {
		goexit := false
		if p := recover(); p != nil {
			o = outcome{err: &Error{Kind: KindPanic, Err: fmt.Errorf("%v", p)}, stack: debug.Stack()}
		} else if !returned {
			goexit = true
			o = outcome{err: &Error{Kind: KindPanic, Err: errors.New("the tool called runtime.Goexit")}, stack: debug.Stack()}
			// The goroutine ends after this function: so does the
			// call goroutine, and nobody may hand it another call.
			w.r.mu.Lock()
			w.dead = true
			w.r.live--
			w.r.mu.Unlock()
			w.tick.Stop()
		}
		w.mu.Lock()
		w.cur = nil
		if goexit {
			w.timer.Stop()
			w.armedAt = time.Time{}
		}
		w.mu.Unlock()
		abandoned := c.finish() // the call is over: its context ends
		w.answer <- o
		if abandoned {
			for (<-w.answer).expired {
			}
			if !goexit {
				w.r.put(w)
			}
		}
	}()
	if w.x != nil {
		o.text, o.err = w.x.Execute(c, *w.e, w.args)
	} else {
		o.text, o.err = w.bound(c)
	}
	o.media = c.takeMedia()
	returned = true
}

// bind binds w's arguments to its entry, on the caller's goroutine, into
// w.bound; ok is false when there is nothing to hand over: the arguments
// were refused, or Bind panicked, which is the outcome, as a panic in the
// tool is. Should Bind call runtime.Goexit, w is parked again before the
// caller's goroutine ends.
func (w *callGoroutine) bind() (o outcome, ok bool) {
	returned := false
	defer func() {
		if p := recover(); p != nil {
			o, ok = outcome{err: &Error{Kind: KindPanic, Err: fmt.Errorf("%v", p)}, stack: debug.Stack()}, false
		} else if !returned {
			w.r.put(w)
		}
	}()
	run, err := w.e.Bind(w.args)
	returned = true
	if err != nil {
		return outcome{err: err}, false
	}
	// A nil Run panics on the call goroutine, as a tool would.
	w.bound = run
	return outcome{}, true
}

// expire ends the call in flight at its timeout, or arms the timer again
// for a call whose time has not come.
func (w *callGoroutine) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armedAt = time.Time{}
	c := w.cur
	if c == nil {
		return
	}
	// Timers never fire early on the monotonic clock, but this firing
	// may have been armed for an earlier call, or the call may have
	// found the timer armed sooner than its deadline and left it be.
	if now := time.Now(); now.Before(c.expiresAt) {
		w.timer.Reset(c.expiresAt.Sub(now))
		w.armedAt = c.expiresAt
		return
	}
	// Under w.mu, with c in flight: the call goroutine has not sent its outcome,
	// which will follow the notice.
	if c.cancel(context.DeadlineExceeded, errDeadline) {
		select {
		case w.answer <- outcome{expired: true}:
		default:
		}
	}
}

// call runs e (through x when it is not nil) with args under parent,
// ending it timeout after start. It returns the tool's outcome; or, when
// the timeout or parent ends first, expired true and the context whose
// cause tells which. Without x, the arguments are bound on the caller's
// goroutine first: arguments that fail to bind are answered there, with
// a nil context, and no call goroutine runs anything (Bind only decodes
// and checks; the timeout covers the Run it returns).
func (r *runner) call(parent context.Context, start time.Time, e *Entry, x Executor, args string) (o outcome, expired bool, c *callCtx) {
	w := r.get()
	w.e, w.x, w.args = e, x, args
	if x == nil {
		var ok bool
		if o, ok = w.bind(); !ok {
			r.put(w)
			return o, false, nil
		}
	}
	c = &callCtx{parent: parent, expiresAt: start.Add(e.Timeout)}
	w.mu.Lock()
	w.cur = c
	if w.armedAt.IsZero() || w.armedAt.After(c.expiresAt) {
		w.timer.Reset(e.Timeout) // fires no sooner than c.expiresAt
		w.armedAt = c.expiresAt
	}
	w.mu.Unlock()
	w.in <- c
	if done := parent.Done(); done == nil {
		o = <-w.answer
	} else {
		select {
		case o = <-w.answer:
		case <-done:
			c.cancel(parent.Err(), cmp.Or(context.Cause(parent), parent.Err()))
			o.expired = true
		}
	}
	// The call ran out of time, or the tool answered. It may have
	// answered at the same moment as it ran out: prefer its answer.
	for o.expired {
		select {
		case o = <-w.answer:
			continue
		default:
		}
		if c.abandon() {
			return outcome{}, true, c
		}
		// The tool finished while we gave up: its answer is on its way.
		for o = <-w.answer; o.expired; o = <-w.answer {
		}
	}
	r.put(w)
	return o, false, c
}

// callCtx is the context a tool sees: the caller's values, a deadline at
// the tool's timeout, and a Done channel made only when the tool asks for
// it. One is made per call and never reused, so a tool that keeps it sees
// it ended.
type callCtx struct {
	parent context.Context
	// expiresAt is when the tool's timeout ends the call (its deadline
	// may be the caller's, sooner); it keeps its monotonic clock reading.
	expiresAt time.Time

	mu    sync.Mutex
	done  chan struct{}
	after []*func() // registered by AfterFunc, run when c ends
	media []Media   // attached by AttachMedia
	err   error
	cause error
	// state: 0 running, 1 the tool returned, 2 the caller gave up.
	state int
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Deadline is the tool's timeout, or the caller's deadline when that is
// sooner. It is worked out at each call rather than kept, so that a
// callCtx stays in its size class with the media it holds.
func (c *callCtx) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.expiresAt) {
		return d, true
	}
	return c.expiresAt, true
}

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

func (c *callCtx) Value(key any) any {
	if key == (mediaKey{}) {
		return c
	}
	return c.parent.Value(key)
}

// takeMedia returns the media attached to c, once the tool returned: c
// ends right after, and nothing more is attached.
func (c *callCtx) takeMedia() []Media {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.media
	c.media = nil
	return m
}

// AfterFunc arranges for f to run in its own goroutine when c ends, and
// returns a function that stops that, reporting whether it did, as
// context.AfterFunc does. The context package uses it for the contexts a
// tool derives from c (context.WithTimeout, context.AfterFunc), which
// would otherwise each start a goroutine to wait for c to end.
func (c *callCtx) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		go f()
		return func() bool { return false }
	}
	p := &f
	c.after = append(c.after, p)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.after, p)
		if i < 0 {
			return false
		}
		c.after = slices.Delete(c.after, i, i+1)
		return true
	}
}

// end records that c ended with err and cause, and wakes whoever waits
// for that; c.mu is held.
func (c *callCtx) end(err, cause error) {
	c.err, c.cause = err, cause
	if c.done != nil {
		close(c.done)
	}
	for _, f := range c.after {
		go (*f)()
	}
	c.after = nil
}

// cancel ends c with err (and cause, for the registry), unless it ended
// already; it reports whether it ended c.
func (c *callCtx) cancel(err, cause error) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return false
	}
	c.end(err, cause)
	return true
}

// errCallOver is the cause of a call's context once the tool returned.
var errCallOver = errors.New("the call is over")

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

// finish ends c, the tool having returned, unless it ended already; it
// records that the tool returned, and reports whether the caller gave up
// on the call before.
func (c *callCtx) finish() (abandoned bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.end(context.Canceled, errCallOver)
	}
	if c.state == 2 {
		return true
	}
	c.state = 1
	return false
}
