//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeSet11 runs the r11_ probes: hostile tools, each
// answering what it took. ok is false for another id.
func probeSet11(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r9Args]("r11_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r11_inotify":
		// Up to a.N inotify instances, held for the call: the kernel
		// counts them per user, machine-wide (128 by default).
		return holdMany(a.N, "inotify_init1", func() (int, error) { return unix.InotifyInit1(unix.IN_CLOEXEC) })
	case "r11_watch":
		// What an honest tool that reads files does with inotify: an
		// instance, and a watch on a.Path that sees a file made there.
		fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
		if err != nil {
			return "", errnoOp("inotify_init1", err), true
		}
		defer unix.Close(fd)
		if _, err := unix.InotifyAddWatch(fd, a.Path, unix.IN_CREATE); err != nil {
			return "", errnoOp("inotify_add_watch", err), true
		}
		f, err := os.CreateTemp(a.Path, "seen")
		if err != nil {
			return "", err, true
		}
		f.Close()
		os.Remove(f.Name())
		buf := make([]byte, 4096)
		n, err := unix.Read(fd, buf)
		if err != nil || n < unix.SizeofInotifyEvent {
			return "", fmt.Errorf("read %d bytes of events: %v", n, err), true
		}
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[0]))
		if ev.Mask&unix.IN_CREATE == 0 {
			return "", fmt.Errorf("event %#x, want IN_CREATE", ev.Mask), true
		}
		return "seen", nil, true
	case "r11_deep":
		// A chain of a.N directories in the worker's temp directory, one
		// in the other, each made from the descriptor of the one above
		// (two descriptors open at most).
		fd, err := unix.Open(os.TempDir(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("open", err), true
		}
		for i := range a.N {
			if err := unix.Mkdirat(fd, "d", 0o700); err != nil {
				unix.Close(fd)
				return "", errnoOp(fmt.Sprint("mkdirat at ", i), err), true
			}
			next, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			unix.Close(fd)
			if err != nil {
				return "", errnoOp(fmt.Sprint("openat at ", i), err), true
			}
			fd = next
		}
		unix.Close(fd)
		return fmt.Sprintf("%d deep", a.N), nil, true
	case "r11_zerocopy":
		// Loopback TCP connections whose peers never read, each sending
		// with MSG_ZEROCOPY until the kernel refuses: what a zerocopy
		// send queues is pinned, and counted against the locked memory
		// of the user (user_struct's locked_vm), every process of the
		// user together. Kept; the answer is the bytes pinned at once.
		pinned := 0
		buf, err := unix.Mmap(-1, 0, 1<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
		if err != nil {
			return "", errnoOp("mmap", err), true
		}
		ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("socket", err), true
		}
		r11Kept = append(r11Kept, ln)
		lo := &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}
		if err := unix.Bind(ln, lo); err != nil {
			return "", errnoOp("bind", err), true
		}
		if err := unix.Listen(ln, 64); err != nil {
			return "", errnoOp("listen", err), true
		}
		sa, _ := unix.Getsockname(ln)
		for range a.N {
			c, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
			if err != nil {
				return "", errnoOp("socket", err), true
			}
			r11Kept = append(r11Kept, c)
			if err := unix.SetsockoptInt(c, unix.SOL_SOCKET, unix.SO_ZEROCOPY, 1); err != nil {
				return "", errnoOp("setsockopt(SO_ZEROCOPY)", err), true
			}
			if err := unix.Connect(c, sa); err != nil && err != unix.EINPROGRESS {
				return "", errnoOp("connect", err), true
			}
			s, _, err := unix.Accept4(ln, unix.SOCK_CLOEXEC)
			if err != nil {
				return "", errnoOp("accept", err), true
			}
			r11Kept = append(r11Kept, s)
			for {
				n, err := unix.SendmsgN(c, buf[:64<<10], nil, nil, unix.MSG_ZEROCOPY|unix.MSG_DONTWAIT)
				if err == unix.ENOBUFS {
					return fmt.Sprintf("%d bytes pinned, then ENOBUFS", pinned), nil, true
				}
				if err != nil {
					break // EAGAIN: this connection is full
				}
				pinned += n
			}
		}
		return fmt.Sprintf("%d bytes pinned", pinned), nil, true
	case "r11_reuseport":
		// A listener on a.Path joined to the port of another program of
		// the user that listens with SO_REUSEPORT (the kernel lets a
		// socket of the same user share it, and spreads the connections
		// among them), kept across calls; with a.N 1, the connections
		// the kept listeners took, and what was sent on them.
		if a.N == 1 {
			return r11Taken(), nil, true
		}
		ap, err := netip.ParseAddrPort(a.Path)
		if err != nil {
			return "", err, true
		}
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
		if err != nil {
			return "", errnoOp("socket", err), true
		}
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEPORT, 1); err != nil {
			unix.Close(fd)
			return "", errnoOp("setsockopt(SO_REUSEPORT)", err), true
		}
		if err := unix.Bind(fd, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}); err != nil {
			unix.Close(fd)
			return "", errnoOp("bind", err), true
		}
		if err := unix.Listen(fd, 128); err != nil {
			unix.Close(fd)
			return "", errnoOp("listen", err), true
		}
		r11Kept = append(r11Kept, fd)
		return "bound", nil, true
	}
	return "", fmt.Errorf("no probe %q", id), true
}

// r11Kept are descriptors the r11_ probes keep across calls; they end
// with their worker.
var r11Kept []int

// holdMany makes up to n objects with mk, closes them all, and says how
// many it made.
func holdMany(n int, what string, mk func() (int, error)) (string, error, bool) {
	var fds []int
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	for i := range n {
		fd, err := mk()
		if err != nil {
			if i == 0 {
				return "", errnoOp(what, err), true
			}
			return fmt.Sprintf("%d made, then %s", i, errnoName(err)), nil, true
		}
		fds = append(fds, fd)
	}
	return fmt.Sprintf("%d made", n), nil, true
}

// r11Taken accepts what the kept listeners hold and says what was sent
// on each connection.
func r11Taken() string {
	var got []string
	for _, l := range r11Kept {
		for {
			c, _, err := unix.Accept4(l, unix.SOCK_CLOEXEC)
			if err != nil {
				break
			}
			buf := make([]byte, 64)
			n, _ := unix.Read(c, buf)
			unix.Close(c)
			got = append(got, string(buf[:max(n, 0)]))
		}
	}
	return strings.Join(got, ",")
}
