//go:build linux

package sandbox

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// probeRegistry is a registry of probe tools whose in-process Run answers
// "in process": only a worker gives the probe's own answer.
func probeRegistry(t *testing.T, caps tool.Capability, ids ...string) *registry.Registry {
	t.Helper()
	tab := &registry.Table{}
	for _, id := range ids {
		tab.Entries = append(tab.Entries, registry.Entry{
			ID: id, Name: id, Description: "probe " + id, Timeout: time.Minute,
			Parameters:   `{"type":"object"}`,
			Capabilities: caps, Reaches: caps,
			Bind: func(args string) (registry.Run, error) {
				if strings.Contains(string(args), "refuse") {
					return nil, registry.ArgumentError(errors.New("refused by Bind"))
				}
				return func(context.Context) (string, error) { return "in process", nil }, nil
			},
		})
		tab.Specs = append(tab.Specs, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: id}})
	}
	tab.Index = func(name string) int { return slices.Index(ids, name) }
	r, err := registry.New(tab)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExecutorMapsKinds(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	ids := []string{"echo", "fail", "badargs", "panic", "goroutine_panic", "spin"}
	r := probeRegistry(t, tool.Unsafe, ids...).WithExecutor(p.Executor(IsolateAll))
	ctx := context.Background()
	for _, tc := range []struct {
		id, args string
		kind     registry.Kind
		text     string
	}{
		{"echo", `{"a":1}`, 0, `{"a":1}`},
		{"echo", `{"refuse":1}`, registry.KindArguments, "Error: echo: bad arguments: refused by Bind"},
		{"fail", `{}`, registry.KindTool, "Error: fail: the tool failed"},
		{"badargs", `{}`, registry.KindArguments, "Error: badargs: bad arguments: bad probe arguments: field x"},
		{"panic", `{}`, registry.KindPanic, "Error: panic: panic: boom"},
		{"goroutine_panic", `{}`, registry.KindCrashed, "panic: boom in a goroutine"},
	} {
		res := r.Call(ctx, tc.id, tc.args)
		var kind registry.Kind
		var e *registry.Error
		if errors.As(res.Err, &e) {
			kind = e.Kind
		}
		if kind != tc.kind || !strings.Contains(res.Text, tc.text) {
			t.Errorf("%s %s: kind %v, text %q; want kind %v, text with %q", tc.id, tc.args, kind, res.Text, tc.kind, tc.text)
		}
	}
	tctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	res := r.Call(tctx, "spin", `{}`)
	if !errors.Is(res.Err, registry.ErrCancelled) && !errors.Is(res.Err, registry.ErrTimeout) {
		t.Errorf("spin past the caller's deadline: %v, want cancelled or timed out", res.Err)
	}
}

func TestExecutorCapable(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), nil)
	pure := probeRegistry(t, 0, "echo").WithExecutor(p.Executor(IsolateCapable))
	if res := pure.Call(context.Background(), "echo", `{}`); res.Text != "in process" {
		t.Errorf("a pure tool under -isolate capable answered %q, want in process", res.Text)
	}
	capable := probeRegistry(t, tool.Unsafe, "echo").WithExecutor(p.Executor(IsolateCapable))
	if res := capable.Call(context.Background(), "echo", `{}`); res.Text != "{}" {
		t.Errorf("an unsafe tool under -isolate capable answered %q, want the worker's {}", res.Text)
	}
	none := probeRegistry(t, tool.Unsafe, "echo").WithExecutor(p.Executor(IsolateNone))
	if res := none.Call(context.Background(), "echo", `{}`); res.Text != "in process" {
		t.Errorf("under -isolate none: %q, want in process", res.Text)
	}
}

// TestExecutorChecksWithoutRunning checks a tool whose Bind checks its
// arguments, as generated tools do: the executor's check in process binds
// and never runs, so an isolated tool runs in its worker only, and bad
// arguments never reach one.
func TestExecutorChecksWithoutRunning(t *testing.T) {
	t.Parallel()
	var inProcess atomic.Int32
	tab := &registry.Table{Index: func(name string) int {
		if name == "echo" {
			return 0
		}
		return -1
	}}
	bind := func(args string) (registry.Run, error) {
		if strings.Contains(string(args), "refuse") {
			return nil, registry.ArgumentError(errors.New("refused by Bind"))
		}
		return func(ctx context.Context) (string, error) {
			inProcess.Add(1)
			return "in process", nil
		}, nil
	}
	tab.Entries = []registry.Entry{{
		ID: "echo", Name: "echo", Description: "probe echo", Timeout: time.Minute,
		Parameters: `{"type":"object"}`, Capabilities: tool.Unsafe, Reaches: tool.Unsafe,
		Bind: bind,
	}}
	r := registry.MustNew(tab).WithExecutor(newPool(t, newDirs(t), nil).Executor(IsolateAll))
	if res := r.Call(context.Background(), "echo", `{"a":1}`); res.Err != nil || res.Text != `{"a":1}` {
		t.Errorf("isolated call = %q (%v), want the worker's echo", res.Text, res.Err)
	}
	res := r.Call(context.Background(), "echo", `{"refuse":1}`)
	if want := "Error: echo: bad arguments: refused by Bind"; !errors.Is(res.Err, registry.ErrArguments) || !strings.HasPrefix(res.Text, want) {
		t.Errorf("isolated call of bad arguments = %q (%v), want %q", res.Text, res.Err, want)
	}
	if n := inProcess.Load(); n != 0 {
		t.Errorf("the tool ran in process %d times, want 0", n)
	}
}
