//go:build linux

package sandbox

import (
	"context"
	"encoding/binary"
	"math"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
)

// reportProgress runs the progress probes: "progress" reports a.N steps
// of a.N, each after the throttle's interval, then reports that are
// dropped (not finite, negative) and one with a message over the limit;
// "progress_flood" reports a.N times at once, then completion;
// "progress_late" leaves a goroutine that reports after the call ended.
func reportProgress(ctx context.Context, id string, a probeArgs) (string, bool) {
	switch id {
	case "progress":
		for i := 1; i <= a.N; i++ {
			tool.Progress(ctx, float64(i), float64(a.N), strings.Repeat("s", i))
			time.Sleep(progressEvery + 10*time.Millisecond)
		}
		tool.Progress(ctx, math.NaN(), 1, "nan")
		tool.Progress(ctx, -1, 1, "negative")
		tool.Progress(ctx, math.Inf(1), 0, "infinite")
		tool.Progress(ctx, float64(a.N+1), 0, "é"+strings.Repeat("x", 2*maxProgressMessage))
		return "done", true
	case "progress_flood":
		for i := range a.N {
			tool.Progress(ctx, float64(i), float64(a.N), "")
		}
		tool.Progress(ctx, float64(a.N), float64(a.N), "complete")
		return "flooded", true
	case "progress_raw":
		// Frames written to the response pipe directly, past the
		// worker's throttle, as a hostile tool would.
		var b []byte
		for i := range a.N {
			var head [17]byte
			head[0] = frameProgress
			binary.BigEndian.PutUint64(head[1:9], math.Float64bits(float64(i)))
			binary.BigEndian.PutUint64(head[9:17], math.Float64bits(float64(a.N)))
			b, _ = writeFrame(rawResponses{}, b, head[:])
		}
		return "raw", true
	case "progress_late":
		go func() {
			time.Sleep(20 * time.Millisecond)
			for range 100 {
				tool.Progress(ctx, 1, 0, "late")
				time.Sleep(time.Millisecond)
			}
		}()
		return "left", true
	}
	return "", false
}

// rawResponses writes to the worker's response pipe directly.
type rawResponses struct{}

func (rawResponses) Write(p []byte) (int, error) { return syscall.Write(responseFD, p) }

type report struct {
	Done, Total float64
	Message     string
}

// collect returns a context whose progress reports are gathered.
func collect(ctx context.Context) (context.Context, func() []report) {
	var mu sync.Mutex
	var got []report
	ctx = tool.WithProgress(ctx, func(_ context.Context, done, total float64, message string) {
		mu.Lock()
		got = append(got, report{done, total, message})
		mu.Unlock()
	})
	return ctx, func() []report {
		mu.Lock()
		defer mu.Unlock()
		return append([]report(nil), got...)
	}
}

// TestProgressReachesTheCaller: a sandboxed tool's progress reaches the
// caller's progress function, in order, before the answer; reports that
// are not finite or negative are dropped, messages are clipped to valid
// UTF-8 of maxProgressMessage bytes.
func TestProgressReachesTheCaller(t *testing.T) {
	p := newPool(t, newDirs(t), nil)
	ctx, got := collect(context.Background())
	out, err := p.Call(ctx, "progress", 0, []byte(`{"n":3}`))
	if err != nil || out != "done" {
		t.Fatalf("progress answered %q, %v", out, err)
	}
	long := "é" + strings.Repeat("x", maxProgressMessage-2)
	want := []report{{1, 3, "s"}, {2, 3, "ss"}, {3, 3, "sss"}, {4, 0, long}}
	if diff := cmp.Diff(want, got()); diff != "" {
		t.Errorf("progress reports (-want +got):\n%s", diff)
	}
}

// TestProgressFloodIsThrottled: a tool that reports in a tight loop
// sends one report per interval, and its completion.
func TestProgressFloodIsThrottled(t *testing.T) {
	p := newPool(t, newDirs(t), nil)
	ctx, got := collect(context.Background())
	start := time.Now()
	if out, err := p.Call(ctx, "progress_flood", 0, []byte(`{"n":100000}`)); err != nil || out != "flooded" {
		t.Fatalf("progress_flood answered %q, %v", out, err)
	}
	// The first report goes at once, then one per interval while the
	// loop runs, and the completion always goes: however long the loop
	// took on this machine, no more than one report an interval.
	most := int(time.Since(start)/progressEvery) + 2
	r := got()
	if len(r) < 2 || len(r) > most || r[0] != (report{0, 100000, ""}) || r[len(r)-1] != (report{100000, 100000, "complete"}) {
		t.Errorf("%d reports of 100,001 got through (at most %d for the call's time), first %v, last %v; want the first, the completion, and one an interval between", len(r), most, r[:min(len(r), 1)], r[max(len(r)-1, 0):])
	}
}

// TestLateProgressStaysOut: progress a tool reports from a goroutine it
// left behind, after its answer, never lands in the stream as the next
// call's answer or breaks the worker.
func TestLateProgressStaysOut(t *testing.T) {
	p := newPool(t, newDirs(t), nil)
	ctx := context.Background()
	if out, err := p.Call(ctx, "progress_late", 0, nil); err != nil || out != "left" {
		t.Fatalf("progress_late answered %q, %v", out, err)
	}
	for i := range 20 {
		out, err := p.Call(ctx, "progress_late", 0, nil)
		if err != nil || out != "left" {
			t.Fatalf("call %d after late reports: %q, %v", i, out, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestProgressThroughTheRegistry: Registry.Call of a sandboxed tool
// hands its progress to the progress function of the caller's context
// (the MCP server's, the agent's), through the Executor.
func TestProgressThroughTheRegistry(t *testing.T) {
	p := newPool(t, newDirs(t), nil)
	r := probeRegistry(t, tool.Unsafe, "progress").WithExecutor(p.Executor(IsolateAll))
	ctx, got := collect(context.Background())
	if res := r.Call(ctx, "progress", `{"n":2}`); res.Text != "done" {
		t.Fatalf("progress answered %+v", res)
	}
	if n := len(got()); n != 3 {
		t.Errorf("%d progress reports through the registry, want 3: %v", n, got())
	}
}

// TestRawProgressIsThrottledByThePool: progress frames a tool writes to
// its response pipe itself, past the worker's throttle, are throttled
// again where they are read: the client is not flooded.
func TestRawProgressIsThrottledByThePool(t *testing.T) {
	p := newPool(t, newDirs(t), nil)
	ctx, got := collect(context.Background())
	start := time.Now()
	if out, err := p.Call(ctx, "progress_raw", 0, []byte(`{"n":20000}`)); err != nil || out != "raw" {
		t.Fatalf("progress_raw answered %q, %v", out, err)
	}
	most := int(time.Since(start)/progressEvery) + 2
	if n := len(got()); n < 1 || n > most {
		t.Errorf("%d of 20,000 raw progress frames were passed on, want the first and at most one an interval (%d for the call's time)", n, most)
	}
}
