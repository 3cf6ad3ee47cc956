package registry

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestGoexit checks that a tool calling runtime.Goexit is a failure, not an
// empty success.
func TestGoexit(t *testing.T) {
	reg := mustNew(t, tableOf([]Entry{{Name: "quit", Timeout: time.Minute, Invoke: func(ctx context.Context, args []byte) (string, error) {
		runtime.Goexit()
		return "unreachable", nil
	}}}))
	res := reg.Call(context.Background(), "quit", "{}")
	if !errors.Is(res.Err, ErrPanic) || res.Text != "Error: quit: panic: the tool called runtime.Goexit" {
		t.Errorf("Goexit: %q, %v", res.Text, res.Err)
	}
}

// TestKeptContextEnds checks that a context a tool keeps after its call
// is over reports that it ended, and is never handed to another call.
func TestKeptContextEnds(t *testing.T) {
	kept := make(chan context.Context, 2)
	reg := mustNew(t, tableOf([]Entry{{Name: "keep", Timeout: time.Minute, Invoke: func(ctx context.Context, args []byte) (string, error) {
		kept <- ctx
		return "ok", nil
	}}}))
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
	reg := mustNew(t, tableOf([]Entry{{Name: "look", Timeout: time.Hour, Invoke: func(ctx context.Context, args []byte) (string, error) {
		got <- ctx
		<-release
		return "", ctx.Err()
	}}}))
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
	reg2 := mustNew(t, tableOf([]Entry{{Name: "look", Timeout: time.Hour, Invoke: func(ctx context.Context, args []byte) (string, error) {
		d, _ := ctx.Deadline()
		return d.Format(time.RFC3339Nano), nil
	}}}))
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
		{Name: "echo", Timeout: time.Minute, Invoke: func(ctx context.Context, args []byte) (string, error) {
			return string(args), nil
		}},
		{Name: "late", Timeout: time.Millisecond, Invoke: func(ctx context.Context, args []byte) (string, error) {
			time.Sleep(3 * time.Millisecond) // ignores its context
			return "late " + string(args), nil
		}},
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

// BenchmarkCall is the registry's own call path beside the tool's Invoke.
func BenchmarkCall(b *testing.B) {
	reg := mustNew(b, tableOf([]Entry{{Name: "echo", Timeout: time.Minute, Invoke: func(ctx context.Context, args []byte) (string, error) {
		return "ok", nil
	}}}))
	ctx := context.Background()
	b.Run("invoke", func(b *testing.B) {
		e, _ := reg.Lookup("echo")
		args := []byte(`{"text":"hello"}`)
		b.ReportAllocs()
		for b.Loop() {
			e.Invoke(ctx, args)
		}
	})
	b.Run("call", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			reg.Call(ctx, "echo", `{"text":"hello"}`)
		}
	})
}
