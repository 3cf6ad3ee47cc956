//go:build linux

package sandbox

import (
	"context"
	"os"
	"testing"

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

// BenchmarkCallWorker is the same call through a warm worker.
func BenchmarkCallWorker(b *testing.B) {
	p := benchPool(b)
	ctx := context.Background()
	if err := p.Warm(ctx, tool.Unsafe); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Call(ctx, "echo", tool.Unsafe, benchArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWorkerStart starts a restricted worker, waits until it is
// ready, and kills it.
func BenchmarkWorkerStart(b *testing.B) {
	p := benchPool(b)
	ctx := context.Background()
	for b.Loop() {
		w, err := p.start(ctx, tool.Unsafe, "")
		if err != nil {
			b.Fatal(err)
		}
		w.kill()
		<-w.exited
	}
}

func benchPool(b *testing.B) *Pool {
	b.Helper()
	d := b.TempDir()
	p, err := NewPool(Config{Arg: workerArg, WorkDir: d, TempDir: d, Environ: os.Environ()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}
