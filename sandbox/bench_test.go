//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

var benchArgs = []byte(`{"expression":"2^10 + sqrt(16)"}`)

// BenchmarkCallInProcess is the baseline: the tool called directly.
func BenchmarkCallInProcess(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if _, err := probe(ctx, "echo", benchArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewPoolClose is a pool made and closed with no worker: its
// directory for its workers' temp directories made, locked and renamed
// (makeTempParent), then removed.
func BenchmarkNewPoolClose(b *testing.B) {
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, NoWriters: true, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

// BenchmarkCallWorker is the same call through a warm worker.
func BenchmarkCallWorker(b *testing.B) {
	p := benchPool(b)
	ctx := context.Background()
	if err := p.Warm(ctx, "echo", tool.Unsafe); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Call(ctx, "echo", tool.Unsafe, benchArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWorkerStart starts a restricted worker, waits until it is
// ready, and kills it; with namespaces of its own (the default) and
// without.
func BenchmarkWorkerStart(b *testing.B) {
	for _, ns := range []bool{true, false} {
		b.Run(fmt.Sprint("namespaces=", ns), func(b *testing.B) {
			p := benchPool(b)
			p.noNamespaces.Store(!ns)
			ctx := context.Background()
			for b.Loop() {
				w, err := p.startForTest(ctx, workerKey{"echo", tool.Unsafe})
				if err != nil {
					b.Fatal(err)
				}
				w.kill()
				<-w.exited
			}
		})
	}
}

func benchPool(b *testing.B) *Pool {
	b.Helper()
	d := b.TempDir()
	// Room for a warm worker per concurrent call of
	// BenchmarkCallRegistryConcurrent.
	p, err := NewPool(Config{Arg: workerArg, WorkDir: d, TempDir: d, Environ: os.Environ(), MaxWorkers: 32})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

// BenchmarkCallRegistryWorker is the isolated path a user gets:
// Registry.Call of a tool with a capability, through the Executor, to a
// warm worker and back; BenchmarkCallRegistryInProcess is the same call
// of the same registry without the Executor.
func BenchmarkCallRegistryWorker(b *testing.B) {
	p := benchPool(b)
	ctx := context.Background()
	if err := p.Warm(ctx, "echo", tool.Unsafe); err != nil {
		b.Fatal(err)
	}
	benchRegistryCall(b, benchRegistry(b).WithExecutor(p.Executor(IsolateCapable)))
}

// BenchmarkCallRegistryInProcess is BenchmarkCallRegistryWorker's call
// without a worker.
func BenchmarkCallRegistryInProcess(b *testing.B) {
	benchRegistryCall(b, benchRegistry(b))
}

// BenchmarkCallRegistryConcurrent is the isolated call and the in-process
// one with 1, 4 and 20 calls at once, each worker warm (one per call
// at once, as the pool grows to the demand); ns/op is the time per call,
// so the ratio of the two is what isolation costs in throughput.
func BenchmarkCallRegistryConcurrent(b *testing.B) {
	for _, n := range []int{1, 4, 20} {
		for _, isolated := range []bool{false, true} {
			b.Run(fmt.Sprintf("calls=%d/isolated=%v", n, isolated), func(b *testing.B) {
				reg := benchRegistry(b)
				if isolated {
					p := benchPool(b)
					for range n {
						w, err := p.startForTest(context.Background(), workerKey{"echo", tool.Unsafe})
						if err != nil {
							b.Fatal(err)
						}
						p.put(w)
					}
					reg = reg.WithExecutor(p.Executor(IsolateCapable))
				}
				want := string(benchArgs)
				var next atomic.Int64
				b.ReportAllocs()
				b.ResetTimer()
				var wg sync.WaitGroup
				for range n {
					wg.Go(func() {
						for next.Add(1) <= int64(b.N) {
							if res := reg.Call(context.Background(), "echo", want); res.Text != want {
								b.Errorf("echo answered %q", res.Text)
								return
							}
						}
					})
				}
				wg.Wait()
			})
		}
	}
}

func benchRegistryCall(b *testing.B, reg *registry.Registry) {
	ctx := context.Background()
	want := string(benchArgs)
	if res := reg.Call(ctx, "echo", want); res.Text != want {
		b.Fatalf("echo answered %q", res.Text)
	}
	b.ReportAllocs()
	for b.Loop() {
		reg.Call(ctx, "echo", want)
	}
}

// benchRegistry is a registry of one tool, echo, that declares
// tool.Unsafe so that IsolateCapable runs it in a worker.
func benchRegistry(b *testing.B) *registry.Registry {
	b.Helper()
	e := registry.Entry{
		ID: "echo", Name: "echo", Description: "Echo the arguments.", Timeout: time.Minute,
		Parameters:   `{"type":"object"}`,
		Capabilities: tool.Unsafe,
		Bind: func(args string) (registry.Run, error) {
			return func(ctx context.Context) (string, error) { return probe(ctx, "echo", []byte(args)) }, nil
		},
	}
	reg, err := registry.New(&registry.Table{
		Entries: []registry.Entry{e},
		Specs:   []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "echo"}}},
		Index: func(name string) int {
			if name == "echo" {
				return 0
			}
			return -1
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	return reg
}

// startForTest takes a slot and starts a worker for k.
func (p *Pool) startForTest(ctx context.Context, k workerKey) (*worker, error) {
	p.slots <- struct{}{}
	p.mu.Lock()
	p.count[k]++
	p.mu.Unlock()
	return p.start(ctx, k)
}

// pipeEcho answers each read of its request pipe with the same bytes on
// its response pipe, until the request pipe closes; through os.File, or
// as a worker does (direct, see workerPipe) when mode is "direct".
func pipeEcho(mode string) {
	in, out := newWorkerPipe(os.NewFile(requestFD, "requests")), newWorkerPipe(os.NewFile(responseFD, "responses"))
	if mode == "direct" && !(in.makeDirect() && out.makeDirect()) {
		fmt.Fprintln(os.Stderr, "pipe echo: the pipes cannot be direct")
		return
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := in.Read(buf)
		if err != nil {
			return
		}
		// The benchmark's caller is alone: the pool's request says so
		// (releaseAfter), and the worker lets its processor go.
		in.release()
		if _, err := out.Write(buf[:n]); err != nil {
			return
		}
	}
}

// BenchmarkPipeRoundTrip is the floor of an isolated call on this
// machine: the call's bytes through a pipe to another process of the
// same Go program, which writes them back on another, with no framing,
// no restrictions and no tool; as the pool does it, the child's
// GOMAXPROCS is 1. With os.File at both ends (io=file), and with the
// pipes the pool and its workers use for a lone call (io=pool: raw
// system calls on a polled pipe in the parent; in the child, direct, and
// released after each request, as a lone call's request says).
func BenchmarkPipeRoundTrip(b *testing.B) {
	for _, mode := range []string{"file", "pool"} {
		b.Run("io="+mode, func(b *testing.B) { benchPipeRoundTrip(b, mode) })
	}
}

func benchPipeRoundTrip(b *testing.B, mode string) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	child := "file"
	if mode == "pool" {
		child = "direct"
	}
	cmd := exec.Command(exe, pipeEchoArg, child)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	cmd.ExtraFiles = []*os.File{reqR, respW}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	reqR.Close()
	respW.Close()
	defer func() {
		reqW.Close()
		_ = cmd.Wait()
		respR.Close()
	}()
	var w io.Writer = reqW
	var r io.Reader = respR
	if mode == "pool" {
		w, r = poolPipeOf(b, reqW), poolPipeOf(b, respR)
	}
	msg := append([]byte{frameRequest}, benchArgs...)
	buf := make([]byte, len(msg))
	for b.Loop() {
		if _, err := w.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(r, buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallWorkerAfterIdle is a call to a worker idle for a while
// before it: shorter than pauseAfter, it is still running; longer, the
// pool has stopped it and continues it for the call.
func BenchmarkCallWorkerAfterIdle(b *testing.B) {
	for _, idle := range []time.Duration{pauseAfter / 4, 2 * pauseAfter} {
		b.Run("idle="+idle.String(), func(b *testing.B) {
			p := benchPool(b)
			ctx := context.Background()
			if err := p.Warm(ctx, "echo", tool.Unsafe); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				b.StopTimer()
				time.Sleep(idle)
				b.StartTimer()
				if _, err := p.Call(ctx, "echo", tool.Unsafe, benchArgs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCallWorkerFirst is the first call of a worker started ahead
// and stopped for its idleness (first), against a call after the same
// idleness to a worker that has answered one before (served): what a
// tool's first call costs beyond the continue of a stopped worker, the
// worker's own first request and answer. Each round starts a pool and a
// worker, untimed.
func BenchmarkCallWorkerFirst(b *testing.B) {
	for _, served := range []bool{false, true} {
		name := "first"
		if served {
			name = "served"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				b.StopTimer()
				p := benchPool(b)
				if err := p.Warm(ctx, "echo", tool.Unsafe); err != nil {
					b.Fatal(err)
				}
				if served {
					if _, err := p.Call(ctx, "echo", tool.Unsafe, benchArgs); err != nil {
						b.Fatal(err)
					}
				}
				time.Sleep(2 * pauseAfter)
				b.StartTimer()
				if _, err := p.Call(ctx, "echo", tool.Unsafe, benchArgs); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				p.Close()
				b.StartTimer()
			}
		})
	}
}
