//go:build linux

package bench

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolreg/toolreg/sandbox"
)

// builtBinaries builds the agent and the hello-world program once per
// test binary, into a directory removed at exit.
var builtBinaries = sync.OnceValues(func() (dir string, err error) {
	dir, err = os.MkdirTemp("", "toolreg-bench-")
	if err != nil {
		return "", err
	}
	// The agent is built in its own module, as users build it.
	for out, pkg := range map[string][2]string{"agent": {"..", "./cmd/agent"}, "hello": {".", "./hello"}} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, out), pkg[1])
		cmd.Dir = pkg[0]
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", &buildError{pkg[1], string(b), err}
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
// pool's Warm), then ended. The baseline is a hello-world process started
// and waited for; ratios are taken against it. private-kB is a ready
// worker's private memory (Private_Clean + Private_Dirty of its
// smaps_rollup).
func BenchmarkWorkerStart(b *testing.B) {
	dir := binaries(b)
	b.Run("hello", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(filepath.Join(dir, "hello")).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, ns := range []bool{true, false} {
		b.Run("agent/namespaces="+strconv.FormatBool(ns), func(b *testing.B) {
			work := b.TempDir()
			ctx := context.Background()
			var private int
			for b.Loop() {
				p, err := sandbox.NewPool(sandbox.Config{
					Arg: "__toolreg_worker", Executable: filepath.Join(dir, "agent"),
					WorkDir: work, TempDir: work, NoNamespaces: !ns,
				})
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Warm(ctx, "word_count", 0); err != nil {
					b.Fatal(err)
				}
				if private == 0 {
					private = childrenPrivateKB(b)
				}
				p.Close()
			}
			b.ReportMetric(float64(private), "private-kB")
		})
	}
}

// childrenPrivateKB is the private memory of this process's children, in
// kB.
func childrenPrivateKB(b *testing.B) int {
	b.Helper()
	self := strconv.Itoa(os.Getpid())
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	total := 0
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
			if f := strings.Fields(sc.Text()); len(f) >= 2 && (f[0] == "Private_Clean:" || f[0] == "Private_Dirty:") {
				n, _ := strconv.Atoi(f[1])
				total += n
			}
		}
		rollup.Close()
	}
	if total == 0 {
		b.Fatal("no worker among this process's children")
	}
	return total
}
