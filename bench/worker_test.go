//go:build linux

package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolreg/toolreg/sandbox"
)

// binDir is the directory builtBinaries builds into, made and removed by
// TestMain.
var binDir string

// TestMain makes binDir and removes it when the benchmarks are done.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "toolreg-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binDir = dir
	code := m.Run()
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// builtBinaries builds the agent and the hello-world program once per
// test binary, into binDir: the agent as go build makes it where a C
// compiler is found (with cgo, dynamically linked), and as the Dockerfile
// makes it (agent-static: CGO_ENABLED=0).
var builtBinaries = sync.OnceValues(func() (string, error) {
	dir := binDir
	// The agent is built in its own module, as users build it.
	for _, b := range []struct{ out, dir, pkg, cgo string }{
		{"agent", "..", "./cmd/agent", ""},
		{"agent-static", "..", "./cmd/agent", "0"},
		{"hello", ".", "./hello", ""},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, b.out), b.pkg)
		cmd.Dir = b.dir
		if b.cgo != "" {
			cmd.Env = append(os.Environ(), "CGO_ENABLED="+b.cgo)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", &buildError{b.pkg, string(out), err}
		}
	}
	return dir, nil
})

type buildError struct {
	pkg, out string
	err      error
}

func (e *buildError) Error() string { return "go build " + e.pkg + ": " + e.err.Error() + "\n" + e.out }

func binaries(b *testing.B) string {
	b.Helper()
	dir, err := builtBinaries()
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkWorkerStart is what a tool's first call waits for: the real
// agent binary started as a worker, restricted and ready to answer (the
// pool's Warm); its end is not timed; as go build makes it, and as the Dockerfile
// makes it (agent-static). The baseline is a hello-world process started
// and waited for; ratios are taken against it. anon-kB is a ready
// worker's anonymous memory (Anonymous of its smaps_rollup): what each
// worker adds. file-kB is the rest of its resident memory, the agent
// binary's pages, which it shares with the agent and the other workers.
// (Private_Dirty would count the binary's pages too while the page cache
// holds them unwritten, as it does right after a build.)
func BenchmarkWorkerStart(b *testing.B) {
	dir := binaries(b)
	b.Run("hello", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(filepath.Join(dir, "hello")).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		bin string
		ns  bool
	}{{"agent", true}, {"agent", false}, {"agent-static", true}} {
		b.Run(c.bin+"/namespaces="+strconv.FormatBool(c.ns), func(b *testing.B) {
			ns := c.ns
			work := b.TempDir()
			ctx := context.Background()
			var anon, file int
			for b.Loop() {
				// Without namespaces the pool warns of what it cannot
				// enforce; on the benchmark's output that broke the
				// result lines.
				p, err := sandbox.NewPool(sandbox.Config{
					Arg: "__toolreg_worker", Executable: filepath.Join(dir, c.bin),
					WorkDir: work, TempDir: work, NoNamespaces: !ns,
					Logger: slog.New(slog.DiscardHandler),
				})
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Warm(ctx, "word_count", 0); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if anon == 0 {
					anon, file = childrenMemoryKB(b)
				}
				p.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(anon), "anon-kB")
			b.ReportMetric(float64(file), "file-kB")
		})
	}
	// What a tool's first call waits for when the pool has a spare ready,
	// as agent mcp and a conversation keep one: the spare given the tool
	// restricts itself to its capabilities and says hello.
	b.Run("agent/spare", func(b *testing.B) {
		work := b.TempDir()
		ctx := context.Background()
		for b.Loop() {
			b.StopTimer()
			p, err := sandbox.NewPool(sandbox.Config{
				Arg: "__toolreg_worker", Executable: filepath.Join(dir, "agent"),
				WorkDir: work, TempDir: work, Spares: 1,
			})
			if err != nil {
				b.Fatal(err)
			}
			for p.Spares() == 0 {
				time.Sleep(time.Millisecond)
			}
			b.StartTimer()
			if err := p.Warm(ctx, "word_count", 0); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			p.Close()
			b.StartTimer()
		}
	})
}

// childrenMemoryKB is the resident memory of this process's children, in
// kB: anonymous, and mapped from files.
func childrenMemoryKB(b *testing.B) (anon, file int) {
	b.Helper()
	self := strconv.Itoa(os.Getpid())
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		data, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// The fields after the command's closing parenthesis: state, ppid.
		rest := data[bytes.LastIndexByte(data, ')')+1:]
		if f := strings.Fields(string(rest)); len(f) < 2 || f[1] != self {
			continue
		}
		rollup, err := os.Open(filepath.Join(filepath.Dir(st), "smaps_rollup"))
		if err != nil {
			b.Fatalf("read a worker's memory: %v", err)
		}
		sc := bufio.NewScanner(rollup)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 2 {
				continue
			}
			n, _ := strconv.Atoi(f[1])
			switch f[0] {
			case "Anonymous:":
				anon += n
				file -= n
			case "Rss:":
				file += n
			}
		}
		rollup.Close()
	}
	if anon == 0 {
		b.Fatal("no worker among this process's children")
	}
	return anon, file
}
