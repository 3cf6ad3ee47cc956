//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// pipe returns both ends of a new pipe, closed at the end of the test.
func pipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// poolPipeOf is newPoolPipe(f) in a test or benchmark, which fails on
// its error.
func poolPipeOf(tb testing.TB, f *os.File) *poolPipe {
	tb.Helper()
	p, err := newPoolPipe(f)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// blockingPipe is pipe with both ends blocking, as a worker finds its
// pipes.
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w = pipe(t)
	r.Fd() // Fd makes a file blocking, as exec does the pipes it passes
	w.Fd()
	return r, w
}

func TestWorkerPipeDirect(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r, w := blockingPipe(t)
	in, out := newWorkerPipe(r), newWorkerPipe(w)
	if !in.makeDirect() || !out.makeDirect() {
		t.Fatal("blocking pipes with GOMAXPROCS=1 are not made direct")
	}
	if in.readable(0) {
		t.Error("an empty pipe is readable")
	}
	msg := bytes.Repeat([]byte("frame "), 100)
	if n, err := out.Write(msg); n != len(msg) || err != nil {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(msg))
	}
	if !in.readable(0) {
		t.Error("a pipe with bytes in it is not readable")
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(in, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, msg) {
		t.Errorf("read %q, want %q", got, msg)
	}
	// A read that finds nothing within directWait waits as an ordinary
	// one, and still gets what comes.
	in.hold = true
	done := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		b := make([]byte, 3)
		// The send readies the test's goroutine but keeps the one
		// processor: the read below starts before the test runs again.
		started <- struct{}{}
		_, err := io.ReadFull(in, b)
		if err == nil && string(b) != "end" {
			err = errors.New("read " + string(b))
		}
		done <- err
	}()
	// The reader holds the one processor until its direct wait is over
	// (or a signal ends it): the test runs again only then, and the
	// read has become an ordinary one.
	<-started
	if _, err := out.Write([]byte("end")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
	// With one processor, the writer could not run before the read
	// had waited its directWait out: the next read does not hold.
	if in.hold {
		t.Error("a direct read that waited out directWait leaves the next one holding the processor")
	}
	// A request sent while the pool was busy makes the next read
	// ordinary.
	in.hold = true
	in.release()
	if in.hold {
		t.Error("release left the next read holding the processor")
	}
	// The other end closed: readable, and the read is the end.
	w.Close()
	if !in.readable(0) {
		t.Error("a pipe whose writer closed is not readable")
	}
	if n, err := in.Read(got); n != 0 || err != io.EOF {
		t.Errorf("Read after the writer closed = %d, %v; want 0, io.EOF", n, err)
	}
}

func TestWorkerPipeDirectRefused(t *testing.T) {
	// More than one processor: another goroutine could need the
	// processor a direct read holds.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	r, _ := blockingPipe(t)
	if newWorkerPipe(r).makeDirect() {
		t.Error("a pipe was made direct with GOMAXPROCS=2")
	}
}

// TestWorkerPipeDirectNonBlocking: a direct pipe that something made
// non-blocking after the fact still reads and writes, as an ordinary one.
func TestWorkerPipeDirectNonBlocking(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r, w := blockingPipe(t)
	in, out := newWorkerPipe(r), newWorkerPipe(w)
	if !in.makeDirect() || !out.makeDirect() {
		t.Fatal("not direct")
	}
	for _, f := range []*os.File{r, w} {
		if err := unix.SetNonblock(int(f.Fd()), true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := out.Write([]byte("abc")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 3)
	if _, err := io.ReadFull(in, b); err != nil || string(b) != "abc" {
		t.Errorf("read %q, %v; want abc", b, err)
	}
}

func TestWorkerPipeWriteToClosedReader(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r, w := blockingPipe(t)
	out := newWorkerPipe(w)
	if !out.makeDirect() {
		t.Fatal("not direct")
	}
	r.Close()
	if _, err := out.Write([]byte("x")); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("writing to a pipe without reader: %v, want EPIPE", err)
	}
}

func TestPoolPipeRoundTrip(t *testing.T) {
	t.Parallel()
	r, w := pipe(t)
	pr, pw := poolPipeOf(t, r), poolPipeOf(t, w)
	// More than the pipe holds: the write waits for the reader.
	msg := bytes.Repeat([]byte{'x', 'y', 'z'}, 300<<10)
	errc := make(chan error, 1)
	go func() {
		n, err := pw.Write(msg)
		if err == nil && n != len(msg) {
			err = io.ErrShortWrite
		}
		errc <- err
	}()
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(pr, got); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("Write: %v", err)
	}
	if !bytes.Equal(got, msg) {
		t.Error("the bytes read are not those written")
	}
	w.Close()
	if n, err := pr.Read(got); n != 0 || err != io.EOF {
		t.Errorf("Read after the writer closed = %d, %v; want 0, io.EOF", n, err)
	}
}

// TestPoolPipeCloseEndsRead: a read of a worker's pipe whose other end a
// process keeps open (a descendant of the worker that outlived it)
// ends when the pool closes the pipe, and so does a write to a full one.
func TestPoolPipeCloseEndsRead(t *testing.T) {
	t.Parallel()
	r, _ := pipe(t) // its writer stays open: nothing will come
	pr := poolPipeOf(t, r)
	errc := make(chan error, 1)
	go func() {
		_, err := pr.Read(make([]byte, 8))
		errc <- err
	}()
	r.Close()
	if err := <-errc; !errors.Is(err, os.ErrClosed) {
		t.Errorf("read of a closed pipe: %v, want os.ErrClosed", err)
	}

	_, w2 := pipe(t) // its reader stays open and reads nothing
	pw := poolPipeOf(t, w2)
	go func() {
		_, err := pw.Write(make([]byte, 1<<20))
		errc <- err
	}()
	w2.Close()
	if err := <-errc; !errors.Is(err, os.ErrClosed) {
		t.Errorf("write to a full pipe that is closed: %v, want os.ErrClosed", err)
	}
}

// TestWorkerWithProcessors: a worker started with GOMAXPROCS above 1
// does not make its pipes direct, and serves as well.
func TestWorkerWithProcessors(t *testing.T) {
	t.Parallel()
	d := t.TempDir()
	p, err := NewPool(Config{Arg: workerArg, WorkDir: d, TempDir: d, Environ: append(os.Environ(), "GOMAXPROCS=2")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := range 3 {
		got, err := p.Call(context.Background(), "echo", tool.Unsafe, benchArgs)
		if err != nil || got != string(benchArgs) {
			t.Fatalf("call %d = %q, %v; want %q", i, got, err, benchArgs)
		}
	}
}

// TestCallTellsTheWorkerWhenToRelease: a call's request tells its worker
// to let its processor go after it (frameRelease) when the call is
// alone, and when more than twice the cores are in flight, but not with
// 2 to 2×cores in flight (see releaseAfter). The workers are pipes that
// the test answers, so that it holds the calls in flight at will: call i
// is made once call i-1's request has come, and none is answered before
// the last.
func TestCallTellsTheWorkerWhenToRelease(t *testing.T) {
	t.Parallel()
	p := newPool(t, newDirs(t), func(c *Config) { c.Spares = 0 })
	cpus := runtime.NumCPU()
	n := 2*cpus + 1
	k := workerKey{"echo", tool.Unsafe}
	type sent struct {
		worker  int
		release bool
		err     error
	}
	requests := make(chan sent, n)
	answers := make([]*os.File, n)
	for i := range n {
		reqR, reqW := pipe(t)
		respR, respW := pipe(t)
		// No process: reaped, so that the pool's stop of an idle worker
		// (pauseAfter after its call, which a slow run of the test
		// reaches), its continue and its kill signal nothing. Without
		// it the stop dereferenced the missing process and the test
		// binary panicked (CI, under -race).
		w := &worker{key: k, reqW: reqW, req: poolPipeOf(t, reqW), respF: respR, resp: bufio.NewReader(poolPipeOf(t, respR)), exited: make(chan struct{}), tail: &tail{max: 8 << 10}, reaped: true}
		p.mu.Lock()
		p.idle[k] = append(p.idle[k], w)
		p.count[k]++
		p.mu.Unlock()
		answers[i] = respW
		go func() {
			r := bufio.NewReader(reqR)
			for {
				body, err := readFrame(r, nil)
				if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
					return
				}
				var q request
				if err == nil {
					q, err = parseRequest(body)
				}
				requests <- sent{i, q.release, err}
			}
		}()
	}
	answer := func(worker int) {
		if _, err := writeFrame(answers[worker], nil, []byte{frameResponse, 0}, []byte("ok")); err != nil {
			t.Fatal(err)
		}
	}

	errs := make(chan error, n)
	var got, want []bool
	var busy []int
	for i := 1; i <= n; i++ {
		go func() {
			_, err := p.Call(context.Background(), k.id, k.caps, []byte(`{}`))
			errs <- err
		}()
		q := <-requests
		if q.err != nil {
			t.Fatalf("call %d's request: %v", i, q.err)
		}
		got, want = append(got, q.release), append(want, releaseAfter(int64(i), cpus))
		busy = append(busy, q.worker)
	}
	for _, w := range busy {
		answer(w)
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Once they have returned, a call is alone again, and one beside it
	// is not.
	busy = busy[:0]
	for i := 1; i <= 2; i++ {
		go func() {
			_, err := p.Call(context.Background(), k.id, k.caps, []byte(`{}`))
			errs <- err
		}()
		q := <-requests
		if q.err != nil {
			t.Fatalf("call %d's request: %v", n+i, q.err)
		}
		got, want = append(got, q.release), append(want, releaseAfter(int64(i), cpus))
		busy = append(busy, q.worker)
	}
	for _, w := range busy {
		answer(w)
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("release asked of the worker by calls 1 to %d in flight, then 1 and 2 again (-want +got):\n%s", n, diff)
	}
	if want[0] != true || want[1] != false || want[n-1] != true {
		t.Errorf("releaseAfter gives %v for 1 to %d calls on %d cores: the test does not test what it says", want[:n], n, cpus)
	}
}
