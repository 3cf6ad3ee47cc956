package registry

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/jsonarg"
)

// TestGoexit checks that a tool calling runtime.Goexit is a failure, not an
// empty success.
func TestGoexit(t *testing.T) {
	reg := mustNew(t, tableOf([]Entry{{Name: "quit", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
		runtime.Goexit()
		return "unreachable", nil
	})}}))
	res := reg.Call(context.Background(), "quit", "{}")
	if !errors.Is(res.Err, ErrPanic) || res.Text != "Error: quit: panic: the tool called runtime.Goexit" {
		t.Errorf("Goexit: %q, %v", res.Text, res.Err)
	}
}

// TestKeptContextEnds checks that a context a tool keeps after its call
// is over reports that it ended, and is never handed to another call.
func TestKeptContextEnds(t *testing.T) {
	kept := make(chan context.Context, 2)
	reg := mustNew(t, tableOf([]Entry{{Name: "keep", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
		kept <- ctx
		return "ok", nil
	})}}))
	for range 2 {
		if res := reg.Call(context.Background(), "keep", "{}"); res.Text != "ok" {
			t.Fatalf("Call = %q", res.Text)
		}
	}
	a, b := <-kept, <-kept
	if a == b {
		t.Error("two calls were given the same context")
	}
	for _, c := range []context.Context{a, b} {
		select {
		case <-c.Done():
		default:
			t.Error("the context of a finished call is not done")
		}
		if !errors.Is(c.Err(), context.Canceled) {
			t.Errorf("Err() = %v, want context.Canceled", c.Err())
		}
	}
}

// TestCallContext checks what a tool's context carries: the caller's
// values, a deadline at the tool's timeout or the caller's, whichever is
// sooner, and an end when the caller's context ends.
func TestCallContext(t *testing.T) {
	type key struct{}
	got := make(chan context.Context, 1)
	release := make(chan struct{})
	reg := mustNew(t, tableOf([]Entry{{Name: "look", Timeout: time.Hour, Bind: runs(func(ctx context.Context, args string) (string, error) {
		got <- ctx
		<-release
		return "", ctx.Err()
	})}}))
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), key{}, "v"))
	start := time.Now()
	done := make(chan Result, 1)
	go func() { done <- reg.Call(parent, "look", "{}") }()
	ctx := <-got
	if ctx.Value(key{}) != "v" {
		t.Errorf("Value = %v, want the caller's value", ctx.Value(key{}))
	}
	if d, ok := ctx.Deadline(); !ok || d.Before(start.Add(59*time.Minute)) {
		t.Errorf("Deadline = %v, %v; want about an hour from now", d, ok)
	}
	cancel(errors.New("the user left"))
	<-ctx.Done()
	res := <-done
	close(release)
	if !errors.Is(res.Err, ErrCancelled) || res.Text != "Error: look: call cancelled: the user left" {
		t.Errorf("cancelled call: %q, %v", res.Text, res.Err)
	}
	short, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	release2 := make(chan struct{})
	close(release2)
	reg2 := mustNew(t, tableOf([]Entry{{Name: "look", Timeout: time.Hour, Bind: runs(func(ctx context.Context, args string) (string, error) {
		d, _ := ctx.Deadline()
		return d.Format(time.RFC3339Nano), nil
	})}}))
	want, _ := short.Deadline()
	if res := reg2.Call(short, "look", "{}"); res.Text != want.Format(time.RFC3339Nano) {
		t.Errorf("deadline under a sooner caller's deadline: %s, want %s", res.Text, want.Format(time.RFC3339Nano))
	}
}

// TestCallsRace runs many calls at once, some timing out while their
// tools ignore the context, so that jobs are reused while stale timers
// fire: under -race, and every answer must be the call's own.
func TestCallsRace(t *testing.T) {
	reg := mustNew(t, tableOf([]Entry{
		{Name: "echo", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return string(args), nil
		})},
		{Name: "late", Timeout: time.Millisecond, Bind: runs(func(ctx context.Context, args string) (string, error) {
			time.Sleep(3 * time.Millisecond) // ignores its context
			return "late " + string(args), nil
		})},
	}))
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for i := range 400 {
		wg.Go(func() {
			args := fmt.Sprintf(`{"i":%d}`, i)
			if i%4 == 0 {
				res := reg.Call(context.Background(), "late", args)
				if res.Text != "Error: late timed out after 1ms" && res.Text != "late "+args {
					errs <- fmt.Errorf("late %d: %q", i, res.Text)
				}
				return
			}
			if res := reg.Call(context.Background(), "echo", args); res.Text != args {
				errs <- fmt.Errorf("echo %d answered %q", i, res.Text)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	time.Sleep(10 * time.Millisecond) // let the late tools finish for goleak
}

// BenchmarkCall is the registry's own call path beside the tool's Bind and
// Run. The tool's Bind returns a Run made once, so that only the
// registry's allocations count.
func BenchmarkCall(b *testing.B) {
	ok := Run(func(ctx context.Context) (string, error) { return "ok", nil })
	reg := mustNew(b, tableOf([]Entry{{Name: "echo", Timeout: time.Minute, Bind: func(string) (Run, error) {
		return ok, nil
	}}}))
	ctx := context.Background()
	b.Run("invoke", func(b *testing.B) {
		e, _ := reg.Lookup("echo")
		args := `{"text":"hello"}`
		b.ReportAllocs()
		for b.Loop() {
			if run, err := e.Bind(args); err == nil {
				run(ctx)
			}
		}
	})
	b.Run("call", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			reg.Call(ctx, "echo", `{"text":"hello"}`)
		}
	})
}

// waitFor polls cond until it holds; the test's own timeout bounds it.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if t.Failed() {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// call goroutines returns the number of call goroutines of reg's calls alive and parked.
func callGoroutines(reg *Registry) (live, parked int) { return reg.set.calls.counts() }

// TestCallGoroutinesReused checks that calls made one after another share one
// call goroutine, that a panic keeps it, and that idle call goroutines end.
func TestCallGoroutinesReused(t *testing.T) {
	reg := mustNew(t, tableOf([]Entry{
		{Name: "echo", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return string(args), nil
		})},
		{Name: "boom", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
			panic("boom")
		})},
	}))
	for i := range 50 {
		args := fmt.Sprintf(`{"i":%d}`, i)
		if res := reg.Call(context.Background(), "echo", args); res.Text != args {
			t.Fatalf("call %d answered %q", i, res.Text)
		}
		if i%10 == 0 {
			if res := reg.Call(context.Background(), "boom", "{}"); !errors.Is(res.Err, ErrPanic) {
				t.Fatalf("boom answered %q", res.Text)
			}
		}
	}
	if live, parked := callGoroutines(reg); live != 1 || parked != 1 {
		t.Errorf("after calls one at a time: %d call goroutines, %d parked; want 1, 1", live, parked)
	}
	waitFor(t, "idle call goroutines to end", func() bool { live, _ := callGoroutines(reg); return live == 0 })
	if res := reg.Call(context.Background(), "echo", "{}"); res.Text != "{}" {
		t.Errorf("after the call goroutines ended: %q", res.Text)
	}
}

// TestGoexitEndsCallGoroutine checks that a call goroutine whose tool called
// runtime.Goexit is not handed another call.
func TestGoexitEndsCallGoroutine(t *testing.T) {
	reg := mustNew(t, tableOf([]Entry{
		{Name: "echo", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return string(args), nil
		})},
		{Name: "quit", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
			runtime.Goexit()
			return "", nil
		})},
	}))
	for range 3 {
		if res := reg.Call(context.Background(), "quit", "{}"); !errors.Is(res.Err, ErrPanic) {
			t.Fatalf("quit answered %q", res.Text)
		}
		if live, parked := callGoroutines(reg); live != 0 || parked != 0 {
			t.Fatalf("after Goexit: %d call goroutines, %d parked; want none", live, parked)
		}
		if res := reg.Call(context.Background(), "echo", "{}"); res.Text != "{}" {
			t.Fatalf("after Goexit: %q", res.Text)
		}
	}
}

// TestStuckToolStarvesNobody checks that tools that ignore their context
// and never return each hold one call goroutine, that other calls get call goroutines of
// their own, and that a stuck call goroutine serves again once its tool returns.
func TestStuckToolStarvesNobody(t *testing.T) {
	release := make(chan struct{})
	reg := mustNew(t, tableOf([]Entry{
		{Name: "echo", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return string(args), nil
		})},
		{Name: "stuck", Timeout: time.Millisecond, Bind: runs(func(ctx context.Context, args string) (string, error) {
			<-release // ignores its context
			return "free", nil
		})},
	}))
	const stuck = 3
	for range stuck {
		if res := reg.Call(context.Background(), "stuck", "{}"); !errors.Is(res.Err, ErrTimeout) {
			t.Fatalf("stuck answered %q, want a timeout", res.Text)
		}
	}
	if live, parked := callGoroutines(reg); live != stuck || parked != 0 {
		t.Errorf("with %d stuck tools: %d call goroutines, %d parked; want %d, 0", stuck, live, parked, stuck)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			args := fmt.Sprintf(`{"i":%d}`, i)
			if res := reg.Call(context.Background(), "echo", args); res.Text != args {
				t.Errorf("echo %d answered %q", i, res.Text)
			}
		})
	}
	wg.Wait()
	if live, _ := callGoroutines(reg); live <= stuck {
		t.Errorf("%d call goroutines after calls beside %d stuck ones; want more", live, stuck)
	}
	close(release)
	// The stuck call goroutines park once their tools return, then end with the
	// others.
	waitFor(t, "the stuck call goroutines to be freed", func() bool { live, parked := callGoroutines(reg); return live == parked })
	waitFor(t, "idle call goroutines to end", func() bool { live, _ := callGoroutines(reg); return live == 0 })
}

// TestDeadlineTimerLeftArmed checks the lazily armed deadline timer of a
// call goroutine: a call whose deadline is sooner than the time the timer is left
// armed for is still cut at its own deadline, and a call whose deadline is
// later is not cut when the timer armed for an earlier call fires.
func TestDeadlineTimerLeftArmed(t *testing.T) {
	release := make(chan struct{})
	reg := mustNew(t, tableOf([]Entry{
		{Name: "long", Timeout: time.Hour, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return "long", nil
		})},
		{Name: "brief", Timeout: 5 * time.Millisecond, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return "brief", nil
		})},
		{Name: "late", Timeout: time.Millisecond, Bind: runs(func(ctx context.Context, args string) (string, error) {
			<-release // ignores its context
			return "late", nil
		})},
		{Name: "wait", Timeout: time.Hour, Bind: runs(func(ctx context.Context, args string) (string, error) {
			time.Sleep(20 * time.Millisecond) // past brief's timeout
			return "waited", ctx.Err()
		})},
	}))
	defer close(release)
	// The call goroutine's timer is left armed an hour ahead; late must still be
	// cut after a millisecond.
	if res := reg.Call(context.Background(), "long", "{}"); res.Text != "long" {
		t.Fatalf("long: %q", res.Text)
	}
	if res := reg.Call(context.Background(), "late", "{}"); !errors.Is(res.Err, ErrTimeout) {
		t.Errorf("late after long: %q, want a timeout", res.Text)
	}
	// The call goroutine of brief has its timer armed 5 ms ahead when wait, with
	// an hour, takes it (the most recently parked call goroutine is taken
	// first): the firing must leave wait alone.
	for range 3 {
		if res := reg.Call(context.Background(), "brief", "{}"); res.Text != "brief" {
			t.Fatalf("brief: %q", res.Text)
		}
		if res := reg.Call(context.Background(), "wait", "{}"); res.Text != "waited" || res.Err != nil {
			t.Errorf("wait after brief: %q, %v; want it to run to the end", res.Text, res.Err)
		}
	}
}

// TestDerivedContexts checks that contexts a tool derives from its own
// end with it: at the tool's timeout, when the caller's context ends, and
// when the call is over; and that a stopped AfterFunc does not run.
func TestDerivedContexts(t *testing.T) {
	derived := make(chan context.Context, 1)
	stopped := make(chan bool, 1)
	ran := make(chan struct{}, 1)
	reg := mustNew(t, tableOf([]Entry{
		{Name: "derive", Timeout: time.Hour, Bind: runs(func(ctx context.Context, args string) (string, error) {
			d, cancel := context.WithCancel(ctx)
			_ = cancel // ends with ctx
			derived <- d
			stop := context.AfterFunc(ctx, func() { ran <- struct{}{} })
			stopped <- stop()
			<-d.Done()
			return "", d.Err()
		})},
		{Name: "brief", Timeout: time.Millisecond, Bind: runs(func(ctx context.Context, args string) (string, error) {
			d, cancel := context.WithTimeout(ctx, time.Hour)
			defer cancel()
			<-d.Done()
			return "", d.Err()
		})},
		{Name: "keep", Timeout: time.Hour, Bind: runs(func(ctx context.Context, args string) (string, error) {
			d, cancel := context.WithCancel(ctx)
			_ = cancel
			derived <- d
			return "ok", nil
		})},
	}))
	// The caller's context ends.
	parent, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() { done <- reg.Call(parent, "derive", "{}") }()
	<-derived
	if !<-stopped {
		t.Error("stopping an AfterFunc of the tool's context reported false")
	}
	cancel()
	if res := <-done; !errors.Is(res.Err, ErrCancelled) {
		t.Errorf("derive: %q, want a cancellation", res.Text)
	}
	// The tool's timeout.
	if res := reg.Call(context.Background(), "brief", "{}"); !errors.Is(res.Err, ErrTimeout) {
		t.Errorf("brief: %q, want a timeout", res.Text)
	}
	// The call is over.
	if res := reg.Call(context.Background(), "keep", "{}"); res.Text != "ok" {
		t.Fatalf("keep: %q", res.Text)
	}
	d := <-derived
	<-d.Done() // the test's timeout bounds this
	select {
	case <-ran:
		t.Error("a stopped AfterFunc ran")
	default:
	}
}

// TestAfterFuncStop checks the stop functions of the AfterFunc method of a
// tool's context (what context.AfterFunc and derived contexts use), for
// the first function registered and later ones: stopping one reports true
// once and keeps it from running; one not stopped runs when the call is
// over, and stopping it then reports false.
func TestAfterFuncStop(t *testing.T) {
	ran := make(chan string, 3)
	stops := make(chan func() bool, 1)
	var got []bool
	reg := mustNew(t, tableOf([]Entry{
		{Name: "after", Timeout: time.Hour, Bind: runs(func(ctx context.Context, args string) (string, error) {
			a, ok := ctx.(interface{ AfterFunc(func()) func() bool })
			if !ok {
				return "", fmt.Errorf("the tool's context %T has no AfterFunc method", ctx)
			}
			first := a.AfterFunc(func() { ran <- "first" })
			second := a.AfterFunc(func() { ran <- "second" })
			third := a.AfterFunc(func() { ran <- "third" })
			got = append(got, first(), first(), second())
			stops <- third
			return "ok", nil
		})},
	}))
	if res := reg.Call(context.Background(), "after", "{}"); res.Text != "ok" {
		t.Fatalf("after: %q", res.Text)
	}
	if diff := cmp.Diff([]bool{true, false, true}, got); diff != "" {
		t.Errorf("stop of the first (twice) and the second AfterFunc (-want +got):\n%s", diff)
	}
	if name := <-ran; name != "third" { // the test's timeout bounds this
		t.Errorf("%s ran when the call was over, want third", name)
	}
	if third := <-stops; third() {
		t.Error("stopping an AfterFunc that ran reported true")
	}
	select {
	case name := <-ran:
		t.Errorf("%s ran too", name)
	default:
	}
}

// TestBindOnCaller checks the arguments bound on the caller's goroutine: a
// refusal is answered there with the decoder's message, a panic in Bind is
// a KindPanic failure like one in the tool, and Bind calling
// runtime.Goexit ends the caller's goroutine but parks the call goroutine
// it took, which serves the next call.
func TestBindOnCaller(t *testing.T) {
	reg := mustNew(t, tableOf([]Entry{
		{Name: "strict", Timeout: time.Minute, Bind: func(args string) (Run, error) {
			if string(args) != "{}" {
				return nil, ArgumentError(jsonarg.Missing("city"))
			}
			return func(ctx context.Context) (string, error) { return "ran", nil }, nil
		}},
		{Name: "boom", Timeout: time.Minute, Bind: func(string) (Run, error) { panic("kaboom") }},
		{Name: "quit", Timeout: time.Minute, Bind: func(string) (Run, error) { runtime.Goexit(); return nil, nil }},
		{Name: "nothing", Timeout: time.Minute, Bind: func(string) (Run, error) { return nil, nil }},
	}))
	ctx := context.Background()
	type answer struct {
		Text         string
		Args, Panic  bool
		Live, Parked int
	}
	got := func(res Result) answer {
		live, parked := callGoroutines(reg)
		return answer{res.Text, errors.Is(res.Err, ErrArguments), errors.Is(res.Err, ErrPanic), live, parked}
	}
	for _, c := range []struct {
		tool, args string
		want       answer
	}{
		{"strict", `{"x":1}`, answer{Text: `Error: strict: bad arguments: field "city": required, but missing`, Args: true, Live: 1, Parked: 1}},
		{"strict", `{}`, answer{Text: "ran", Live: 1, Parked: 1}},
		{"boom", `{}`, answer{Text: "Error: boom: panic: kaboom", Panic: true, Live: 1, Parked: 1}},
		// A Bind that returns no Run and no error: the call of the nil Run
		// panics on the call goroutine, as it always did.
		{"nothing", `{}`, answer{Text: "Error: nothing: panic: runtime error: invalid memory address or nil pointer dereference", Panic: true, Live: 1, Parked: 1}},
	} {
		if diff := cmp.Diff(c.want, got(reg.Call(ctx, c.tool, c.args))); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", c.tool, c.args, diff)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		reg.Call(ctx, "quit", "{}")
		t.Error("Call returned after Bind called runtime.Goexit")
	}()
	<-done
	if live, parked := callGoroutines(reg); live != 1 || parked != 1 {
		t.Errorf("after Goexit in Bind: %d call goroutines, %d parked; want 1, 1", live, parked)
	}
	if res := reg.Call(ctx, "strict", "{}"); res.Text != "ran" {
		t.Errorf("after Goexit in Bind: %q", res.Text)
	}
}

// TestBadArgumentsAllocations checks the allocations of a call refused
// for its arguments: the decoder's error and its wrapping (two), the
// error attributed to the tool (one), the cause's message and the text
// (one each). It was 14 with the arguments bound on the call goroutine
// and the messages written by fmt.
func TestBadArgumentsAllocations(t *testing.T) {
	reg := mustNew(t, tableOf([]Entry{{Name: "strict", Timeout: time.Minute, Bind: func(args string) (Run, error) {
		return nil, ArgumentError(jsonarg.Missing("city"))
	}}}))
	ctx := context.Background()
	n := testing.AllocsPerRun(100, func() {
		if res := reg.Call(ctx, "strict", `{"days":3}`); !errors.Is(res.Err, ErrArguments) {
			t.Fatalf("answered %q", res.Text)
		}
	})
	if n > 5 {
		t.Errorf("a call with bad arguments: %v allocations, want at most 5", n)
	}
}
