//go:build linux

package sandbox

import (
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// workerPipe is one of a worker's pipes. Once direct, it is read and
// written with raw system calls, which leave the Go scheduler out: a
// read that waits keeps the calling goroutine on its processor and its
// thread, and the request wakes that thread and nothing else. With an
// ordinary system call and one processor, the runtime's monitor hands
// the processor of a thread blocked for more than 20 µs to another
// thread, which it wakes, and the thread the request wakes must then
// hand its goroutine over to that one: where each wake-up costs tens of
// microseconds, as on a virtual machine, that was a third of a call.
//
// A direct read waits so for directWait at most, and only while the
// requests come that quickly: a read that waited longer, or an ordinary
// read that did, makes the next one ordinary, until an ordinary read
// finds its request within directWait again. A worker whose tool is not
// called for a while so lets its processor go and sleeps, instead of
// being looked at by the monitor a hundred times a second, and a worker
// called every few milliseconds among many does not pay a timed-out
// wait on top of an ordinary read for each call. A request the pool
// sent alone, or with many calls in flight, makes the next read
// ordinary too (release; see Pool.Call). direct is set only where the worker has one processor
// (GOMAXPROCS=1, as the pool starts it): while its serving goroutine
// waits nothing else in it could run anyway, and no stop of the world
// for the garbage collector can be waiting on it, since a goroutine
// that asked for one would hold the processor.
type workerPipe struct {
	f      *os.File
	fd     int
	direct bool
	// hold says whether the next direct read waits holding the
	// processor: the last request came within directWait.
	hold bool
}

// newWorkerPipe wraps f; makeDirect makes it direct where it can be.
func newWorkerPipe(f *os.File) *workerPipe {
	return &workerPipe{f: f, fd: int(f.Fd())}
}

// makeDirect makes p direct when the process has one processor; it
// reports whether it did. (The pipe blocks: Fd made it so.)
func (p *workerPipe) makeDirect() bool {
	p.direct = runtime.GOMAXPROCS(0) == 1
	// The first request of a worker that a call waited for follows its
	// hello at once.
	p.hold = p.direct
	return p.direct
}

// release makes the next read ordinary: the pool sent the request
// alone or with many calls in flight (see Pool.Call).
func (p *workerPipe) release() { p.hold = false }

// directWait is how long a direct read waits with its processor held:
// long enough for calls made one after the other by a caller that the
// machine's other work may hold up for a few milliseconds (with 1 ms,
// the warm call on a loaded machine kept little of its gain).
const directWait = 5 * time.Millisecond

// Read implements io.Reader.
func (p *workerPipe) Read(b []byte) (int, error) {
	if !p.direct || len(b) == 0 {
		return p.f.Read(b)
	}
	if !p.hold {
		start := time.Now()
		n, err := p.f.Read(b)
		p.hold = time.Since(start) < directWait
		return n, err
	}
	if !p.readable(directWait) {
		p.hold = false // the requests have slowed down
		return p.f.Read(b)
	}
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(p.fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
		switch {
		case errno == syscall.EINTR:
			continue
		case errno == syscall.EAGAIN:
			return p.f.Read(b) // someone made the pipe non-blocking
		case errno != 0:
			return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
		case n == 0:
			return 0, io.EOF
		}
		return int(n), nil
	}
}

// readable waits up to d, with a raw system call, until a read of p
// would not block: there is something to read, or the other end is
// closed. It reports false when d passed first, or a signal came.
func (p *workerPipe) readable(d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	ts := unix.NsecToTimespec(int64(d))
	n, _, errno := syscall.RawSyscall6(unix.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	return errno == 0 && n == 1
}

// Write implements io.Writer: it writes all of b or fails.
func (p *workerPipe) Write(b []byte) (int, error) {
	if !p.direct {
		return p.f.Write(b)
	}
	done := 0
	for done < len(b) {
		rest := b[done:]
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(p.fd), uintptr(unsafe.Pointer(unsafe.SliceData(rest))), uintptr(len(rest)))
		switch {
		case errno == syscall.EINTR:
			continue
		case errno == syscall.EAGAIN:
			n, err := p.f.Write(rest) // someone made the pipe non-blocking
			return done + n, err
		case errno != 0:
			return done, &os.PathError{Op: "write", Path: p.f.Name(), Err: errno}
		case n == 0:
			return done, &os.PathError{Op: "write", Path: p.f.Name(), Err: errors.New("wrote nothing")}
		}
		done += int(n)
	}
	return done, nil
}

// poolPipe is the pool's end of a worker's pipe: non-blocking, waited on
// with the runtime's poller, and read and written with raw system
// calls, which never block on it. An ordinary system call on a process
// whose processors had all gone idle wakes the runtime's monitor thread
// first: with raw ones, a call that waits for its worker and is then
// answered wakes one thread, the one that waits in the poller.
// Closing the file ends a read or write that waits, as for an os.File.
// One goroutine at a time reads or writes it.
type poolPipe struct {
	f  *os.File
	rc syscall.RawConn

	// The operation under way, for readFD and writeFD, which are made
	// once so that an operation allocates nothing.
	buf             []byte
	n               int
	errno           syscall.Errno
	readFD, writeFD func(fd uintptr) bool
}

func newPoolPipe(f *os.File) (*poolPipe, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	p := &poolPipe{f: f, rc: rc}
	p.readFD, p.writeFD = p.readRaw, p.writeRaw
	return p, nil
}

// Read implements io.Reader.
func (p *poolPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.buf, p.n, p.errno = b, 0, 0
	err := p.rc.Read(p.readFD)
	n, errno := p.n, p.errno
	p.buf = nil
	switch {
	case err != nil:
		// The only error of a raw read: the pipe was closed.
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: os.ErrClosed}
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// readRaw reads into p.buf; false when there is nothing to read yet.
func (p *poolPipe) readRaw(fd uintptr) bool {
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(unsafe.SliceData(p.buf))), uintptr(len(p.buf)))
		switch errno {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			p.n = int(n)
		default:
			p.errno = errno
		}
		return true
	}
}

// Write implements io.Writer: it writes all of b or fails.
func (p *poolPipe) Write(b []byte) (int, error) {
	p.buf, p.n, p.errno = b, 0, 0
	err := p.rc.Write(p.writeFD)
	done, errno := p.n, p.errno
	p.buf = nil
	switch {
	case err != nil:
		return done, &os.PathError{Op: "write", Path: p.f.Name(), Err: os.ErrClosed}
	case errno != 0:
		return done, &os.PathError{Op: "write", Path: p.f.Name(), Err: errno}
	}
	return done, nil
}

// writeRaw writes the rest of p.buf; false when the pipe is full.
func (p *poolPipe) writeRaw(fd uintptr) bool {
	for p.n < len(p.buf) {
		rest := p.buf[p.n:]
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(rest))), uintptr(len(rest)))
		switch errno {
		case 0:
			p.n += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			p.errno = errno
			return true
		}
	}
	return true
}
