package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"

	"github.com/toolreg/toolreg/registry"
)

func TestFrameRoundTrip(t *testing.T) {
	t.Parallel()
	for _, release := range []bool{false, true} {
		var b bytes.Buffer
		hdr, err := requestHeader(42, "calculator", release)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := writeFrame(&b, nil, hdr, []byte(`{"x":1}`)); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(&b)
		body, err := readFrame(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseRequest(body)
		if err != nil {
			t.Fatal(err)
		}
		want := request{deadline: 42, id: "calculator", args: []byte(`{"x":1}`), release: release}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(request{})); diff != "" {
			t.Errorf("request (-want +got):\n%s", diff)
		}
		if _, err := readFrame(r, nil); !errors.Is(err, io.EOF) {
			t.Errorf("after the last frame: %v, want io.EOF", err)
		}
	}
	// Another frame type is no request.
	if _, err := parseRequest(append([]byte{frameResponse}, make([]byte, 10)...)); err == nil {
		t.Error("a response frame parsed as a request")
	}
}

// returnMemoryAfter has the memory t allocates given back to the system
// once t and its cleanups end (debug.FreeOSMemory), for a test that
// takes tens of MiB. A worker started with a user namespace is cloned
// without sharing this process's memory: the clone copies the page
// tables of everything this process holds, and this process then takes
// a fault at the first write to each page. Kept until the runtime's
// scavenger returned them, the 64 MiB frames of two tests held this
// process at 120 to 260 MB for the rest of the run, against 20 to 30 MB,
// and every later worker's start paid for it.
func returnMemoryAfter(t *testing.T) {
	t.Helper()
	t.Cleanup(debug.FreeOSMemory)
}

func TestFrameLimits(t *testing.T) {
	t.Parallel()
	returnMemoryAfter(t)
	// At the limit a frame passes; past it, it is refused both ways.
	big := make([]byte, maxFrame)
	// The frame's buffer is made here, and the collection the two
	// allocations start ends before the copy: a collection that began
	// during it, in writeFrame's own allocation, signalled the copying
	// thread for its whole length to stop it, which no copy can, and
	// took a second of the processor.
	buf := make([]byte, 0, 4+maxFrame)
	runtime.GC()
	if _, err := writeFrame(io.Discard, buf, big); err != nil {
		t.Errorf("a frame of maxFrame bytes: %v", err)
	}
	if _, err := writeFrame(io.Discard, nil, big, []byte{0}); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("a frame of maxFrame+1 bytes: %v, want errFrameTooLarge", err)
	}
	hdr := []byte{0x04, 0x00, 0x00, 0x01} // maxFrame+1
	if _, err := readFrame(bufio.NewReader(bytes.NewReader(hdr)), nil); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("reading a header of maxFrame+1: %v, want errFrameTooLarge", err)
	}
	if _, err := readFrame(bufio.NewReader(bytes.NewReader([]byte{0, 0, 0, 5, 'R'})), nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a cut frame: %v, want io.ErrUnexpectedEOF", err)
	}
	for _, k := range []registry.Kind{registry.KindUnknownTool, registry.KindTimeout, registry.KindCrashed, registry.KindNotStarted, 255} {
		if _, _, err := parseResponse([]byte{frameResponse, byte(k)}); err == nil {
			t.Errorf("a response of kind %v, which the worker may not send, was accepted", k)
		}
	}
}

func TestWorkerEnv(t *testing.T) {
	t.Parallel()
	environ := []string{"LLM_API_KEY=k", "A=1", "B=2", "TZ=UTC", "PATH=/bin", "TMPDIR=/x", "HOME=/h", "P=p"}
	for _, tc := range []struct {
		caps tool.Capability
		want []string
	}{
		// P is passed to every worker (Config.Pass); LLM_API_KEY to none;
		// one processor unless the environment says otherwise.
		{0, []string{"TZ=UTC", "P=p", "GOMAXPROCS=1", "TMPDIR=/t"}},
		{tool.Env, []string{"A=1", "TZ=UTC", "P=p", "GOMAXPROCS=1", "TMPDIR=/t"}},
		{tool.Exec, []string{"TZ=UTC", "PATH=/bin", "HOME=/h", "P=p", "GOMAXPROCS=1", "TMPDIR=/t"}},
		{tool.Env | tool.Exec | tool.Unsafe, []string{"A=1", "TZ=UTC", "PATH=/bin", "HOME=/h", "P=p", "GOMAXPROCS=1", "TMPDIR=/t"}},
	} {
		got := workerEnv(environ, []string{"A", "LLM_API_KEY"}, []string{"P"}, tc.caps, "/t")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("workerEnv for %s (-want +got):\n%s", tc.caps, diff)
		}
	}
	// GOMAXPROCS set for the agent is the workers' too.
	got := workerEnv(append(environ, "GOMAXPROCS=4"), nil, nil, 0, "/t")
	if want := []string{"TZ=UTC", "GOMAXPROCS=4", "TMPDIR=/t"}; !cmp.Equal(want, got) {
		t.Errorf("workerEnv with GOMAXPROCS=4 in the environment (-want +got):\n%s", cmp.Diff(want, got))
	}
}

func TestSpecRoundTrip(t *testing.T) {
	t.Parallel()
	want := spec{workDir: "/w", tempDir: "/t", namespaces: true, limits: Limits{Memory: 1, Files: -1, FileSize: 3, Processes: 4}}
	got, err := parseSpec(want.args())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(spec{})); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}
	for _, bad := range [][]string{
		{"-workdir", "rel", "-tempdir", "/t"},
		{"-workdir", "/w"},
		{"-workdir", "/w", "-tempdir", "/t", "extra"},
		{"-workdir", "/w", "-tempdir", "/t", "-memory", "lots"},
		// The tool and its capabilities come in the assignment, never on
		// the command line.
		{"-tool", "echo", "-workdir", "/w", "-tempdir", "/t"},
		{"-caps", "none", "-workdir", "/w", "-tempdir", "/t"},
	} {
		if _, err := parseSpec(bad); err == nil {
			t.Errorf("parseSpec(%q) accepted", bad)
		}
	}
}

// TestAssignment: the assignment frame names the tool, its capabilities
// and the variables they add; a malformed one is refused and changes
// nothing.
func TestAssignment(t *testing.T) {
	t.Setenv("TOOLREG_TEST_ASSIGNED", "")
	frame, err := assignFrame(assignment{Tool: "ping_url", Caps: (tool.Network | tool.Env).String(), Env: []string{"TOOLREG_TEST_ASSIGNED=a=b"}})
	if err != nil {
		t.Fatal(err)
	}
	s := spec{workDir: "/w", tempDir: "/t"}
	if err := s.assign(frame); err != nil {
		t.Fatal(err)
	}
	want := spec{toolID: "ping_url", caps: tool.Network | tool.Env, workDir: "/w", tempDir: "/t"}
	if diff := cmp.Diff(want, s, cmp.AllowUnexported(spec{})); diff != "" {
		t.Errorf("spec after the assignment (-want +got):\n%s", diff)
	}
	if got := os.Getenv("TOOLREG_TEST_ASSIGNED"); got != "a=b" {
		t.Errorf("TOOLREG_TEST_ASSIGNED = %q, want %q", got, "a=b")
	}
	for _, bad := range []string{
		``,
		`C{"tool":"echo","caps":""}`,
		`A{"tool":"echo","caps":"teleport"}`,
		`A{"tool":"","caps":""}`,
		`A{"tool":"echo","caps":"","env":["NOEQUALS"]}`,
		`A{"tool":"echo","caps":"","env":["=v"]}`,
		`A{"tool":"echo"`,
	} {
		s := spec{}
		if err := s.assign([]byte(bad)); err == nil {
			t.Errorf("assign(%q) accepted: %+v", bad, s)
		} else if s.toolID != "" {
			t.Errorf("assign(%q) failed but set the tool %q", bad, s.toolID)
		}
	}
}

// TestAssignedEnv: an assignment adds what the capabilities call for to
// what every worker starts with, and never LLM_API_KEY.
func TestAssignedEnv(t *testing.T) {
	t.Parallel()
	environ := []string{"PATH=/bin", "HOME=/h", "A=1", "B=2", "P=3", "TZ=UTC", "LLM_API_KEY=k", "HTTPS_PROXY=http://p"}
	for _, tc := range []struct {
		caps tool.Capability
		want []string
	}{
		{0, nil},
		{tool.ReadFiles | tool.WriteFiles, nil},
		{tool.Exec, []string{"PATH=/bin", "HOME=/h"}},
		{tool.Network, []string{"HTTPS_PROXY=http://p"}},
		{tool.Env, []string{"A=1"}},
	} {
		got := assignedEnv(environ, []string{"A", "LLM_API_KEY"}, []string{"P"}, tc.caps)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("assignedEnv for %s (-want +got):\n%s", tc.caps, diff)
		}
	}
}

func TestMissing(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		if m := missing(0, 0, false, false, false); len(m) != 1 {
			t.Errorf("missing on %s: %q, want one entry", runtime.GOOS, m)
		}
		return
	}
	for _, tc := range []struct {
		caps       tool.Capability
		abi        int
		seccomp    bool
		namespaces bool
		root       bool
		want       int
	}{
		{0, 7, true, true, false, 0},
		{tool.Network, 7, false, true, false, 2},                               // process creation, metadata
		{tool.Network | tool.Exec | tool.WriteFiles, 7, false, true, false, 0}, // all of it is granted
		{0, 7, false, true, false, 3},                                          // process creation, metadata, sockets
		{0, 10, false, true, false, 3},                                         // Landlock covers TCP and UDP, not raw sockets
		{0, 5, true, true, false, 1},                                           // scoping
		{0, 3, false, true, false, 5},                                          // process creation, metadata, TCP, sockets, scoping
		{0, 2, true, true, false, 2},                                           // truncate, scoping
		{0, 0, false, true, false, 6},                                          // no Landlock, process creation, metadata, TCP, sockets, scoping
		{0, 7, true, false, false, 1},                                          // threads not bounded; nothing to outlive the call, nothing to write
		{tool.Exec, 7, true, false, false, 3},                                  // programs outlive the call, are not bounded, reach other programs' System V objects
		{tool.WriteFiles, 7, true, false, false, 2},                            // .git writable, threads
		{tool.ReadFiles, 7, true, false, false, 2},                             // the user's inotify instances, threads
		{tool.Exec | tool.WriteFiles | tool.Network, 7, false, false, false, 4},
		{tool.Exec, 7, true, true, false, 0}, // bounded in the worker's user namespace
		{tool.Exec, 7, true, true, true, 1},  // root is exempt from RLIMIT_NPROC
		{0, 7, true, true, true, 0},          // a tool that starts nothing needs no bound
	} {
		if got := missing(tc.caps, tc.abi, tc.seccomp, tc.namespaces, tc.root); len(got) != tc.want {
			t.Errorf("missing(%s, ABI %d, seccomp %t, namespaces %t, root %t) = %q, want %d entries", tc.caps, tc.abi, tc.seccomp, tc.namespaces, tc.root, got, tc.want)
		}
	}
}

// TestSparesStarting: the spares under way that a call may wait for;
// none for a pool that starts no more spares or is closed.
func TestSparesStarting(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		nspares, ready   int
		noSpares, closed bool
		want             int
	}{
		{name: "one starting", nspares: 1, want: 1},
		{name: "two starting", nspares: 2, want: 2},
		{name: "one ready, none starting", nspares: 1, ready: 1},
		{name: "one ready, one starting", nspares: 2, ready: 1, want: 1},
		{name: "none", nspares: 0},
		{name: "the spares failed", nspares: 1, noSpares: true},
		{name: "closed", nspares: 1, closed: true},
	} {
		p := &Pool{nspares: c.nspares, spares: make([]*worker, c.ready), noSpares: c.noSpares, closed: c.closed}
		if got := p.sparesStarting(); got != c.want {
			t.Errorf("%s: sparesStarting() = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestReleaseAfter: a worker holds its processor for the next request
// only when the pool has from 2 to twice its cores calls in flight.
func TestReleaseAfter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    int64
		cpus int
		want bool
	}{
		{0, 2, true}, {1, 2, true}, {2, 2, false}, {3, 2, false}, {4, 2, false}, {5, 2, true}, {20, 2, true},
		{1, 1, true}, {2, 1, false}, {3, 1, true},
		{16, 8, false}, {17, 8, true},
	} {
		if got := releaseAfter(c.n, c.cpus); got != c.want {
			t.Errorf("releaseAfter(%d, %d) = %v, want %v", c.n, c.cpus, got, c.want)
		}
	}
}

// TestAverageAndFastest: the pool's two figures of time. The average's
// first sample stands alone, even a zero one (zero means none yet), and
// each later one weighs an eighth; the fastest is the shortest sample,
// never 0.
func TestAverageAndFastest(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name         string
		f            func(time.Duration, time.Duration) time.Duration
		had, d, want time.Duration
	}{
		{"average", average, 0, 8 * ms, 8 * ms},
		{"average", average, 0, 0, 1},
		{"average", average, 8 * ms, 16 * ms, 9 * ms},
		{"average", average, 8 * ms, 0, 7 * ms},
		{"average", average, 8 * ms, 8 * ms, 8 * ms},
		{"fastest", fastest, 0, 8 * ms, 8 * ms},
		{"fastest", fastest, 0, 0, 1},
		{"fastest", fastest, 8 * ms, 16 * ms, 8 * ms},
		{"fastest", fastest, 8 * ms, 2 * ms, 2 * ms},
		{"fastest", fastest, 8 * ms, 0, 1},
	} {
		if got := c.f(c.had, c.d); got != c.want {
			t.Errorf("%s(%v, %v) = %v, want %v", c.name, c.had, c.d, got, c.want)
		}
	}
}

// TestTakeExpired: the idle reaper takes a tool's workers idle for the
// idle timeout or longer, the oldest first, and leaves those idle for
// less; a tool left with none has no entry.
func TestTakeExpired(t *testing.T) {
	t.Parallel()
	const timeout = time.Minute
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	since := func(d time.Duration) *worker { return &worker{idleSince: now.Add(-d)} }
	a := []*worker{since(2 * timeout), since(timeout), since(timeout - time.Nanosecond)}
	b := []*worker{since(timeout + time.Nanosecond)}
	c := []*worker{since(timeout - time.Nanosecond), since(0)}
	ka, kb, kc := workerKey{"a", tool.Unsafe}, workerKey{"b", tool.Unsafe}, workerKey{"c", tool.ReadFiles}
	p := &Pool{cfg: Config{IdleTimeout: timeout}, idle: map[workerKey][]*worker{ka: a, kb: b, kc: c}}

	took := map[*worker]int{}
	for _, w := range p.takeExpired(now) {
		took[w]++
	}
	same := cmp.Comparer(func(x, y *worker) bool { return x == y })
	if diff := cmp.Diff(map[*worker]int{a[0]: 1, a[1]: 1, b[0]: 1}, took, same); diff != "" {
		t.Errorf("workers taken, and how often (-want +got):\n%s", diff)
	}
	left := map[workerKey][]*worker{ka: a[2:], kc: c}
	if diff := cmp.Diff(left, p.idle, same); diff != "" {
		t.Errorf("idle workers left (-want +got):\n%s", diff)
	}
	if got := p.takeExpired(now); len(got) != 0 {
		t.Errorf("a second take at the same time took %d workers", len(got))
	}
}
