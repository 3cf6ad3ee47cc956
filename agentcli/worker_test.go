//go:build linux

package agentcli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/sandbox"
	"github.com/toolreg/toolreg/tool"
)

// workerChildren returns the pids of this process's children that are
// tool workers.
func workerChildren(t *testing.T) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	var out []int
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // it ended
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		fields := strings.Fields(string(b[i+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(self) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		cmdline, err := os.ReadFile(filepath.Join(filepath.Dir(f), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(workerArg)) {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// TestWarmUpWaitsToBeAsked: a server's or a conversation's selection
// starts no worker ahead until it is asked (startWarmUp), so that the
// starts do not delay its first answer; then a spare and a worker for
// each of its first tools, half the workers at most; asking twice starts
// no more; stopping ends them all. A selection that does not warm up
// starts none when asked.
func TestWarmUpWaitsToBeAsked(t *testing.T) {
	reg, err := compiledIn(testTools)
	if err != nil {
		t.Fatal(err)
	}
	newSelection := func(warm bool) *selection {
		s := &selection{}
		fs := flag.NewFlagSet("agent", flag.ContinueOnError)
		s.register(fs, func(string) string { return "" })
		if err := fs.Parse([]string{"-isolate", "all", "-workers", "4", "-workdir", t.TempDir()}); err != nil {
			t.Fatal(err)
		}
		s.warm = warm
		return s
	}

	cold := newSelection(false)
	_, stopCold, err := cold.isolate(reg, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	cold.startWarmUp()
	time.Sleep(200 * time.Millisecond)
	if got := workerChildren(t); len(got) != 0 {
		t.Errorf("a selection that does not warm up started workers %v when asked", got)
	}
	stopCold()

	s := newSelection(true)
	_, stop, err := s.isolate(reg, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	// Starts under way would show within this time; none may.
	time.Sleep(200 * time.Millisecond)
	if got := workerChildren(t); len(got) != 0 {
		t.Fatalf("workers %v started before the warm-up was asked for", got)
	}
	s.startWarmUp()
	s.startWarmUp()
	// A spare and 4/2 tools' workers. A start that failed is logged
	// where this test does not look: the guard ends the wait instead of
	// the test binary's timeout.
	const want = 1 + 4/2
	guard := time.Now().Add(time.Minute)
	for len(workerChildren(t)) < want {
		if time.Now().After(guard) {
			t.Fatalf("%d workers a minute after the warm-up was asked for, want %d", len(workerChildren(t)), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The warm-up is done once its starts are: no more come.
	time.Sleep(50 * time.Millisecond)
	if got := workerChildren(t); len(got) != want {
		t.Errorf("%d workers after the warm-up was asked for twice, want %d: %v", len(got), want, got)
	}
	stop()
	stopped = true
	if got := workerChildren(t); len(got) != 0 {
		t.Errorf("workers %v outlive the stop", got)
	}
}

// TestWorkersHideTheState: the agent gives its pool its state directory
// to hide from every tool (the OAuth tokens of its MCP servers, its kept
// conversations), as the environment names it.
func TestWorkersHideTheState(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"}, []string{"/s/toolreg"}},
		{map[string]string{"HOME": "/h"}, []string{"/h/.local/state/toolreg"}},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}, []string{"/h/.local/state/toolreg"}},
	} {
		c := &cli{tools: testTools, getenv: func(k string) string { return tc.env[k] }}
		_, o := c.newFlags("")
		if got := o.sel.hidden(); !slices.Equal(got, tc.want) {
			t.Errorf("environment %v: hidden %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestWrites: the pool searches for nested repositories as it is made
// only when a tool it runs may write files.
func TestWrites(t *testing.T) {
	t.Parallel()
	reader := registry.Entry{Name: "read", Capabilities: tool.ReadFiles}
	writer := registry.Entry{Name: "write", Capabilities: tool.ReadFiles | tool.WriteFiles}
	found := registry.Entry{Name: "found", Capabilities: tool.ReadFiles, Reaches: tool.WriteFiles}
	mounted := registry.Entry{Name: "srv__write", Server: "srv", Capabilities: tool.WriteFiles}
	for _, tc := range []struct {
		tools []registry.Entry
		mode  sandbox.Isolation
		want  bool
	}{
		{nil, sandbox.IsolateAll, false},
		{[]registry.Entry{reader}, sandbox.IsolateAll, false},
		{[]registry.Entry{reader, writer}, sandbox.IsolateAll, true},
		{[]registry.Entry{reader, writer}, sandbox.IsolateCapable, true},
		{[]registry.Entry{reader, writer}, sandbox.IsolateNone, false},
		// What the audit found the tool reaches counts as declared.
		{[]registry.Entry{reader, found}, sandbox.IsolateAll, true},
		// A mounted server's tool runs in its server, not in a worker.
		{[]registry.Entry{reader, mounted}, sandbox.IsolateAll, false},
	} {
		var names []string
		for _, e := range tc.tools {
			names = append(names, e.Name)
		}
		if got := writes(tc.tools, tc.mode); got != tc.want {
			t.Errorf("writes(%q, %v) = %v, want %v", names, tc.mode, got, tc.want)
		}
	}
}
