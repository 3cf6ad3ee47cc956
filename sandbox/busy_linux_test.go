//go:build linux

package sandbox

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// TestShortCallsWaitForABusyWorker: a call that finds its tool's only
// worker busy has no worker started for it while the tool's calls have
// been so short that waiting beats a start (waitBeatsStart), and has one
// started at once when they have been long, or once it has waited as
// long as a start takes; before its tool has answered, and before the
// pool has started a worker, it is as when they have been long.
func TestShortCallsWaitForABusyWorker(t *testing.T) {
	t.Parallel()
	k := workerKey{"block", tool.Unsafe}
	for _, c := range []struct {
		name          string
		busy, start   time.Duration
		wantStarted   bool
		wantBeatStart bool
	}{
		{"short calls", time.Microsecond, time.Hour, false, true},
		{"long calls", time.Hour, time.Microsecond, true, false},
		{"calls not yet timed", 0, time.Hour, true, false},
		{"no start timed", time.Microsecond, 0, true, false},
		// Waiting beats a start, but the wait lasts as long as a start
		// at most: then one starts for the call.
		{"short calls, the wait over", time.Microsecond, 20 * time.Millisecond, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPool(t, newDirs(t), func(c *Config) { c.Spares = 0 })
			if err := p.Warm(context.Background(), k.id, k.caps); err != nil {
				t.Fatal(err)
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
			p.busyFor[k], p.startFor = c.busy, c.start
			p.mu.Unlock()
			ctx2, cancel2 := context.WithCancel(context.Background())
			second := make(chan error, 1)
			go func() {
				_, err := p.Call(ctx2, k.id, k.caps, nil)
				second <- err
			}()
			waitLocked(t, p, "the second call to wait", func() bool { return p.waiting[k] == 1 })
			if c.wantStarted && c.wantBeatStart {
				waitLocked(t, p, "a worker started for the waiting call", func() bool { return p.count[k] > 1 })
			}
			p.mu.Lock()
			count, beats := p.count[k], p.waitBeatsStart(k)
			p.mu.Unlock()
			if started := count > 1; started != c.wantStarted || beats != c.wantBeatStart {
				t.Errorf("busy for %v, a start %v: a worker started for the waiting call %v (%d alive or starting), waiting beats a start %v; want %v and %v",
					c.busy, c.start, started, count, beats, c.wantStarted, c.wantBeatStart)
			}
			cancel2()
			cancel1()
			for _, ch := range []chan error{first, second} {
				var e *registry.Error
				if err := <-ch; !errors.As(err, &e) || e.Kind != registry.KindCancelled {
					t.Errorf("a cancelled call: %v, want a cancellation", err)
				}
			}
		})
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
