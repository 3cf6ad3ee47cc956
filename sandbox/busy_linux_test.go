//go:build linux

package sandbox

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// TestShortCallsWaitForABusyWorker: a call that finds its tool's only
// worker busy has no worker started for it while the tool's calls have
// been so short that waiting beats a start (waitBeatsStart), and has one
// started at once when they have been long, or once it has waited as
// long as the fastest start took; before its tool has answered, and
// before the pool has started a worker, it is as when they have been
// long. The pool learns both figures from the calls and starts it sees.
func TestShortCallsWaitForABusyWorker(t *testing.T) {
	t.Parallel()
	k := workerKey{"block", tool.Unsafe}
	for _, c := range []struct {
		name        string
		busy, start time.Duration
		wantStarted bool
	}{
		{"short calls", time.Microsecond, time.Hour, false},
		{"long calls", time.Hour, time.Microsecond, true},
		{"calls not yet timed", 0, time.Hour, true},
		{"no start timed", time.Microsecond, 0, true},
		// Waiting beats a start, but the wait lasts as long as the
		// fastest start at most: then one starts for the call.
		{"short calls, the wait over", time.Microsecond, 20 * time.Millisecond, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPool(t, newDirs(t), func(c *Config) { c.Spares = 0 })
			if err := p.Warm(context.Background(), k.id, k.caps); err != nil {
				t.Fatal(err)
			}
			p.mu.Lock()
			learnt := p.fastestStart
			p.mu.Unlock()
			if learnt <= 0 {
				t.Fatalf("after a worker's start the pool's fastest start is %v", learnt)
			}
			// The first call holds the tool's only worker.
			ctx1, cancel1 := context.WithCancel(context.Background())
			first := make(chan error, 1)
			go func() {
				_, err := p.Call(ctx1, k.id, k.caps, nil)
				first <- err
			}()
			waitLocked(t, p, "the first call to take the worker", func() bool { return len(p.idle[k]) == 0 })
			p.mu.Lock()
			p.busyFor[k], p.fastestStart = c.busy, c.start
			p.mu.Unlock()
			ctx2, cancel2 := context.WithCancel(context.Background())
			second := make(chan error, 1)
			go func() {
				_, err := p.Call(ctx2, k.id, k.caps, nil)
				second <- err
			}()
			if c.wantStarted {
				// Once started, a worker stays counted: this holds.
				waitLocked(t, p, "a worker started for the waiting call", func() bool { return p.count[k] > 1 })
			} else {
				// Nothing starts for an hour: this holds too.
				var count int
				waitLocked(t, p, "the second call to wait", func() bool { count = p.count[k]; return p.waiting[k] == 1 })
				if count != 1 {
					t.Errorf("%d workers alive or starting while the call waits, want the busy one", count)
				}
			}
			cancel2()
			cancel1()
			for _, ch := range []chan error{first, second} {
				var e *registry.Error
				if err := <-ch; !errors.As(err, &e) || e.Kind != registry.KindCancelled {
					t.Errorf("a cancelled call: %v, want a cancellation", err)
				}
			}
			// The call cut short held its worker: that counts.
			p.mu.Lock()
			busy := p.busyFor[k]
			p.mu.Unlock()
			if busy == c.busy {
				t.Errorf("a call cut short left the tool's time %v as set", busy)
			}
		})
	}
}

// TestCallsTimed: an answered call teaches the pool how long its tool's
// calls hold a worker, and a spare's start how long a start takes; a
// call refused for its arguments before the tool ran teaches nothing.
func TestCallsTimed(t *testing.T) {
	t.Parallel()
	returnMemoryAfter(t)
	p := newPool(t, newDirs(t), nil)
	k := workerKey{"echo", tool.Unsafe}
	if _, err := call(t, p, k.id, k.caps, probeArgs{}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	busy, start := p.busyFor[k], p.fastestStart
	p.mu.Unlock()
	if busy <= 0 {
		t.Fatalf("after an answered call the tool's time is %v", busy)
	}
	// The call was given newPool's spare: its start is timed too.
	if start <= 0 {
		t.Errorf("after a spare's start the pool's fastest start is %v", start)
	}
	big := make([]byte, maxFrame+1)
	if _, err := p.Call(context.Background(), k.id, k.caps, big); err == nil {
		t.Fatal("a request past the frame limit was sent")
	}
	p.mu.Lock()
	after := p.busyFor[k]
	p.mu.Unlock()
	if after != busy {
		t.Errorf("a request refused before the tool ran changed the tool's time from %v to %v", busy, after)
	}
}

// TestWaitBeatsStart: the calls waiting times how long a call holds a
// worker against the workers times the fastest start, and false when
// either figure is unknown or no worker is there.
func TestWaitBeatsStart(t *testing.T) {
	k := workerKey{"t", 0}
	ms := time.Millisecond
	for _, c := range []struct {
		busy, start    time.Duration
		waiting, count int
		want           bool
	}{
		{1 * ms, 20 * ms, 1, 1, true},
		{1 * ms, 20 * ms, 19, 1, true},
		{1 * ms, 20 * ms, 20, 1, false}, // 20 ms either way: start
		{1 * ms, 20 * ms, 21, 1, false},
		{1 * ms, 20 * ms, 40, 2, false},
		{1 * ms, 20 * ms, 39, 2, true},
		{30 * ms, 20 * ms, 1, 1, false},
		{0, 20 * ms, 1, 1, false},
		{1 * ms, 0, 1, 1, false},
		{1 * ms, 20 * ms, 1, 0, false},
	} {
		p := &Pool{busyFor: map[workerKey]time.Duration{k: c.busy}, fastestStart: c.start,
			waiting: map[workerKey]int{k: c.waiting}, count: map[workerKey]int{k: c.count}}
		if got := p.waitBeatsStart(k); got != c.want {
			t.Errorf("busy %v, fastest start %v, %d waiting, %d workers: %v, want %v", c.busy, c.start, c.waiting, c.count, got, c.want)
		}
	}
}

// waitLocked waits for cond, called with p's lock held, for a minute at
// most.
func waitLocked(t *testing.T, p *Pool, what string, cond func() bool) {
	t.Helper()
	for guard := time.Now().Add(time.Minute); ; {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(guard) {
			t.Fatalf("a minute without %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestHostileToolCannotSlowOthersWait: a tool that takes the processors
// while workers start (calls that spin, each to its own worker) made the
// pool's figure for a start rise, and with it how long other tools'
// short calls waited for their busy workers: 150–230 ms where a start
// took 22 ms (found in review). The pool bounds the wait by the fastest
// start it has seen, which no slow start raises. (That calls cut short
// count in their tool's time is TestShortCallsWaitForABusyWorker's: here
// a call may end while it still waits for its worker's start.)
func TestHostileToolCannotSlowOthersWait(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), func(c *Config) { c.Spares = 0 })
	// One of the spinning tool's workers, ready for its first call: the
	// others start while it spins.
	if err := p.Warm(context.Background(), "spin", tool.Unsafe); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	before := p.fastestStart
	p.mu.Unlock()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			p.Call(ctx, "spin", tool.Unsafe, nil)
		})
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	p.mu.Lock()
	after := p.fastestStart
	p.mu.Unlock()
	if after <= 0 || after > before {
		t.Errorf("the pool's fastest start went from %v to %v while a tool spun on every processor", before, after)
	}
}
