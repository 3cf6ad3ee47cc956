//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// holdPool is a pool whose hold on spares (assignSpare) never times out:
// a path that leaves it is seen as p.assigning stuck above zero. It
// replaces each spare given a tool unless edit sets Spares.
func holdPool(t *testing.T, edit func(*Config)) *Pool {
	t.Helper()
	p := newPool(t, newDirs(t), func(c *Config) {
		keepSpare(c)
		if edit != nil {
			edit(c)
		}
	})
	p.mu.Lock()
	p.spareWait = time.Hour
	p.mu.Unlock()
	return p
}

// waitAssigning0 waits until no spare given a tool holds back the next,
// failing the test when p.assigning goes below zero or stays above it.
func waitAssigning0(t *testing.T, p *Pool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := underLock(p, func() int { return p.assigning })
		if n < 0 {
			t.Fatalf("%s: assigning %d < 0", what, n)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: assigning still %d after 10 s: the hold leaked", what, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSpareHoldReleasedOnEveryPath: whatever becomes of a spare given a
// tool (its first call answered, failed, crashed, cancelled, killed; its
// start ahead, Warm, Enforcement; Close), the hold on the next spare
// (assignSpare) ends without its timer, and the next spare starts.
func TestSpareHoldReleasedOnEveryPath(t *testing.T) {
	type scenario struct {
		name string
		run  func(t *testing.T, p *Pool)
	}
	callTool := func(id string, timeout time.Duration) func(t *testing.T, p *Pool) {
		return func(t *testing.T, p *Pool) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			_, err := p.Call(ctx, id, tool.Unsafe, []byte(`{}`))
			t.Logf("%s: %v", id, err)
		}
	}
	scenarios := []scenario{
		{"echo", callTool("echo", 10*time.Second)},
		{"fail", callTool("fail", 10*time.Second)},
		{"badargs", callTool("badargs", 10*time.Second)},
		{"panic", callTool("panic", 10*time.Second)},
		{"exit", callTool("exit", 10*time.Second)},
		{"goexit", callTool("goexit", 10*time.Second)},
		{"selfkill", callTool("selfkill", 10*time.Second)},
		{"goroutine_panic", callTool("goroutine_panic", 10*time.Second)},
		{"block timeout", callTool("block", 100*time.Millisecond)},
		{"unknown tool", callTool("nosuchtool", 10*time.Second)},
		{"Enforcement", func(t *testing.T, p *Pool) {
			_, err := p.Enforcement(context.Background(), "echo", tool.Unsafe)
			t.Logf("%v", err)
		}},
		{"Warm", func(t *testing.T, p *Pool) {
			t.Logf("%v", p.Warm(context.Background(), "echo", tool.Unsafe))
		}},
		{"cancelled during assign", func(t *testing.T, p *Pool) {
			s := waitSpare(t, p)
			stopWorker(t, s)
			callTool("echo", 100*time.Millisecond)(t, p)
		}},
		{"spare killed during first call", func(t *testing.T, p *Pool) {
			s := waitSpare(t, p)
			done := make(chan struct{})
			go func() { callTool("block", 10*time.Second)(t, p); close(done) }()
			for p.inflight.Load() == 0 {
				time.Sleep(100 * time.Microsecond)
			}
			syscall.Kill(s.pid(), syscall.SIGKILL)
			<-done
		}},
		{"startAhead given the spare", func(t *testing.T, p *Pool) {
			// Prestart while the spare is ready: from spawn.
			if err := p.Prestart(context.Background(), "block#a", tool.Unsafe); err != nil {
				t.Fatal(err)
			}
			s := waitSpare(t, p)
			var wg sync.WaitGroup
			for range 2 {
				wg.Add(1)
				go func() { defer wg.Done(); callTool("block#a", 300*time.Millisecond)(t, p) }()
			}
			wg.Wait()
			if k := underLock(p, func() int {
				if s.key.id == "block#a" {
					return 1
				}
				return 0
			}); k != 1 {
				t.Errorf("the spare went to %q, not block#a's start ahead", s.key.id)
			}
		}},
		{"startAhead given the spare, its call gone", func(t *testing.T, p *Pool) {
			// A worker started ahead that no call takes: the call it was
			// started for left while the spare restricted itself. Only
			// startAhead can then end the hold; the paths of a first call
			// never run.
			k := workerKey{"block#b", tool.Unsafe}
			if err := p.Prestart(context.Background(), k.id, tool.Unsafe); err != nil {
				t.Fatal(err)
			}
			s := waitSpare(t, p)
			stopWorker(t, s) // the spare's restriction waits until continued
			busyCtx, stopBusy := context.WithCancel(context.Background())
			busy := make(chan struct{})
			go func() {
				defer close(busy)
				_, err := p.Call(busyCtx, k.id, tool.Unsafe, []byte(`{}`))
				t.Logf("the busy call: %v", err)
			}()
			for p.inflight.Load() == 0 {
				time.Sleep(100 * time.Microsecond)
			}
			waitCtx, leave := context.WithCancel(context.Background())
			waited := make(chan error, 1)
			go func() {
				_, err := p.Call(waitCtx, k.id, tool.Unsafe, []byte(`{}`))
				waited <- err
			}()
			for underLock(p, func() int { return p.starting[k] }) == 0 {
				time.Sleep(100 * time.Microsecond)
			}
			leave()
			wantKind(t, "the call that waited", <-waited, registry.KindCancelled, "waited for a worker")
			if err := syscall.Kill(s.pid(), syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			for underLock(p, func() int { return p.starting[k] }) != 0 {
				time.Sleep(100 * time.Microsecond)
			}
			wantIdleSpare(t, p, k.id, s)
			stopBusy()
			<-busy
		}},
		{"Close during first call", func(t *testing.T, p *Pool) {
			done := make(chan struct{})
			go func() { callTool("block", 10*time.Second)(t, p); close(done) }()
			for p.inflight.Load() == 0 {
				time.Sleep(100 * time.Microsecond)
			}
			p.Close()
			<-done
		}},
		{"Close during assign", func(t *testing.T, p *Pool) {
			s := waitSpare(t, p)
			stopWorker(t, s)
			done := make(chan struct{})
			go func() { callTool("echo", 10*time.Second)(t, p); close(done) }()
			for underLock(p, func() int { return p.assigning }) == 0 {
				time.Sleep(100 * time.Microsecond)
			}
			p.Close()
			<-done
		}},
	}
	// Each scenario has a pool of its own: they run side by side.
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			p := holdPool(t, nil)
			waitSpare(t, p)
			s.run(t, p)
			waitAssigning0(t, p, s.name)
			if underLock(p, func() int {
				if p.closed {
					return 1
				}
				return 0
			}) == 0 {
				waitSpare(t, p)
			}
		})
	}
}

// TestSpareHoldStress: calls of many kinds at once, with short deadlines
// and a short or endless spareWait, then Close; assigning never goes
// below zero and ends at zero.
func TestSpareHoldStress(t *testing.T) {
	for _, wait := range []time.Duration{time.Millisecond, time.Hour} {
		t.Run(fmt.Sprint(wait), func(t *testing.T) {
			p := newPool(t, newDirs(t), func(c *Config) { c.MaxWorkers = 4; c.Spares = 2 })
			p.mu.Lock()
			p.spareWait = wait
			p.mu.Unlock()
			stop := make(chan struct{})
			var neg sync.WaitGroup
			neg.Add(1)
			go func() {
				defer neg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					if n := underLock(p, func() int { return p.assigning }); n < 0 {
						t.Errorf("assigning %d", n)
						return
					}
					time.Sleep(50 * time.Microsecond)
				}
			}()
			tools := []string{"echo", "fail", "panic", "exit", "block", "nap"}
			calls := 12 // each goroutine's
			if testing.Short() {
				calls = 5 // (g+i)%5 takes each of its values: each way, in each goroutine
			}
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range calls {
						id := fmt.Sprintf("%s#%d", tools[rand.IntN(len(tools))], rand.IntN(4))
						ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rand.IntN(150)+5)*time.Millisecond)
						switch (g + i) % 5 {
						case 0:
							p.Prestart(ctx, id, tool.Unsafe)
						case 1:
							p.Warm(ctx, id, tool.Unsafe)
						default:
							p.Call(ctx, id, tool.Unsafe, []byte(`{"n":20}`))
						}
						cancel()
					}
				}()
			}
			wg.Wait()
			waitAssigning0(t, p, "after the calls")
			p.Close()
			close(stop)
			neg.Wait()
			if n := underLock(p, func() int { return p.assigning }); n != 0 {
				t.Errorf("assigning %d after Close", n)
			}
		})
	}
}
