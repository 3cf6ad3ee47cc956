package registry

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// isolator plays an executor that runs the tools it isolates in another
// process: it answers for them, or waits for its context to end when the
// arguments say "wait", records on which goroutine's behalf it ran (the
// context's value), and leaves the others to their Bind and Run.
type isolator struct {
	isolated map[string]bool
	mu       sync.Mutex
	ran      []string // under mu: a timed-out call goroutine may still append
}

type callerKey struct{}

func (x *isolator) Isolates(e Entry) bool { return x.isolated[e.Name] }

func (x *isolator) Execute(ctx context.Context, e Entry, args string) (string, error) {
	caller, _ := ctx.Value(callerKey{}).(string)
	x.mu.Lock()
	x.ran = append(x.ran, e.Name+" for "+caller)
	x.mu.Unlock()
	switch string(args) {
	case `"wait"`:
		<-ctx.Done()
		return "", ctx.Err()
	case `"panic"`:
		panic("the executor broke")
	case `"fail"`:
		return "", &Error{Kind: KindCrashed, Err: errors.New("worker 7 exited")}
	}
	if !x.isolated[e.Name] {
		run, err := e.Bind(args)
		if err != nil {
			return "", err
		}
		return run(ctx)
	}
	return "isolated " + e.Name, nil
}

// TestIsolatorCalls: the calls an Isolator isolates are executed under
// the caller's context values, with the tool's timeout and the caller's
// cancellation reported as in process; an executor's own failures and
// panics are the call's failures; the calls it does not isolate run as
// they would without it, the stubborn tool's timeout holding.
func TestIsolatorCalls(t *testing.T) {
	x := &isolator{isolated: map[string]bool{"echo": true, "polite": true}}
	release := make(chan struct{})
	defer close(release)
	reg := mustNew(t, testTable(release)).WithLogger(nil).WithExecutor(x)
	ctx := context.WithValue(context.Background(), callerKey{}, "the test")

	type answer struct {
		Text string
		Kind Kind
		Err  string
	}
	call := func(ctx context.Context, name, args string) answer {
		res := reg.Call(ctx, name, args)
		a := answer{Text: res.Text}
		var e *Error
		if errors.As(res.Err, &e) {
			a.Kind, a.Err = e.Kind, e.Err.Error()
			a.Text = ""
		}
		return a
	}
	cancelled, cancel := context.WithCancel(ctx)
	go func() {
		time.Sleep(10 * time.Millisecond)
		cancel()
	}()
	got := []answer{
		call(ctx, "echo", `{}`),
		call(ctx, "polite", `"wait"`),     // its timeout of 20 ms
		call(cancelled, "echo", `"wait"`), // the caller gives up
		call(ctx, "echo", `"fail"`),
		call(ctx, "echo", `"panic"`),
		call(ctx, "stubborn", `{}`), // not isolated: in process, its timeout holds
	}
	want := []answer{
		{Text: "isolated echo"},
		{Kind: KindTimeout, Err: "after 20ms"},
		{Kind: KindCancelled, Err: "context canceled"},
		{Kind: KindCrashed, Err: "worker 7 exited"},
		{Kind: KindPanic, Err: "the executor broke"},
		{Kind: KindTimeout, Err: "after 20ms"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	wantRan := []string{"echo for the test", "polite for the test", "echo for the test", "echo for the test", "echo for the test", "stubborn for the test"}
	x.mu.Lock()
	ran := slices.Clone(x.ran)
	x.mu.Unlock()
	if diff := cmp.Diff(wantRan, ran); diff != "" {
		t.Errorf("executed (-want +got):\n%s", diff)
	}
}

// TestIsolatedCallOnTheCaller: an isolated call is executed on the
// caller's goroutine, without a call goroutine (the runner's count shows
// none started); a call in process still takes one.
func TestIsolatedCallOnTheCaller(t *testing.T) {
	x := &isolator{isolated: map[string]bool{"echo": true}}
	reg := mustNew(t, testTable(nil)).WithExecutor(x)
	if res := reg.Call(context.Background(), "echo", `{}`); res.Err != nil || !strings.HasPrefix(res.Text, "isolated") {
		t.Fatalf("echo: %q, %v", res.Text, res.Err)
	}
	reg.set.calls.mu.Lock()
	live := reg.set.calls.live
	reg.set.calls.mu.Unlock()
	if live != 0 {
		t.Errorf("%d call goroutines after an isolated call, want none", live)
	}
	if res := reg.Call(context.Background(), "fail", `{}`); res.Err == nil {
		t.Fatal("fail, not isolated, answered")
	}
	reg.set.calls.mu.Lock()
	live = reg.set.calls.live
	reg.set.calls.mu.Unlock()
	if live != 1 {
		t.Errorf("%d call goroutines after a call in process, want one", live)
	}
}
