//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// r6Args are the arguments of the r6_ probes.
type r6Args struct {
	Path string `json:"path,omitempty"`
	N    int    `json:"n,omitempty"`
	M    int    `json:"m,omitempty"`
}

// r6Kept are descriptors an r6_ probe keeps open across calls.
var r6Kept = map[string]int{}

// probeSet6 runs the r6_ probes: hostile tools, each answering
// what it took. ok is false for another id.
func probeSet6(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r6Args]("r6_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r6_growsdown":
		// a.N MiB of private anonymous memory mapped MAP_GROWSDOWN,
		// touched: the kernel counts such a mapping as stack, not data.
		b, err := unix.Mmap(-1, 0, a.N<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_GROWSDOWN)
		if err != nil {
			return "", errnoOp("mmap", err), true
		}
		defer unix.Munmap(b)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		return fmt.Sprintf("%d MiB touched", len(b)>>20), nil, true
	case "r6_stackgrow":
		// Raises its stack limit (soft) to the hard one and touches
		// a.N MiB below the initial stack, where os.Args points, page by
		// page down: the kernel grows the main thread's stack to them.
		var rl syscall.Rlimit
		syscall.Getrlimit(syscall.RLIMIT_STACK, &rl)
		rl.Cur = rl.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_STACK, &rl); err != nil {
			return "", errnoOp("setrlimit", err), true
		}
		if rl.Cur != unix.RLIM_INFINITY && rl.Cur < uint64(a.N+16)<<20 {
			// Past it, the touch would fault.
			return "", fmt.Errorf("the stack limit is %d MiB", rl.Cur>>20), true
		}
		p := unsafe.Pointer(unsafe.StringData(os.Args[0]))
		p = unsafe.Add(p, -int(uintptr(p)&4095))
		for i := 0; i < a.N<<8; i++ {
			*(*byte)(unsafe.Add(p, -i*4096)) = 1
		}
		return fmt.Sprintf("%d MiB touched", a.N), nil, true
	case "r6_pagetables":
		// a.N GiB of read-only private anonymous memory, no huge pages,
		// read once every 2 MiB (unless a.M is 1): a page of page table
		// each. Kept.
		b, err := unix.Mmap(-1, 0, a.N<<30, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
		if err != nil {
			return "", errnoOp("mmap", err), true
		}
		unix.Madvise(b, unix.MADV_NOHUGEPAGE)
		var sum byte
		for i := 0; a.M == 0 && i < len(b); i += 2 << 20 {
			sum += b[i]
		}
		r6Kept["pt"] = len(b)
		return fmt.Sprintf("%d GiB read (%d)", a.N, sum), nil, true
	case "r6_timers":
		// POSIX timers until the kernel refuses one, a.N at most; kept
		// for the worker's life.
		n := 0
		for ; n < a.N; n++ {
			var id int32
			sev := make([]byte, 64) // sigev_notify 1: SIGEV_NONE
			*(*int32)(unsafe.Pointer(&sev[12])) = 1
			if _, _, e := syscall.Syscall(unix.SYS_TIMER_CREATE, unix.CLOCK_MONOTONIC, uintptr(unsafe.Pointer(&sev[0])), uintptr(unsafe.Pointer(&id))); e != 0 {
				return fmt.Sprintf("%d made, then %s", n, errnoName(e)), nil, true
			}
		}
		return fmt.Sprintf("%d made", n), nil, true
	case "r6_readdev":
		// Reads what is waiting on a.Path (a terminal), without blocking.
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("open", err), true
		}
		defer syscall.Close(fd)
		buf := make([]byte, 256)
		n, err := syscall.Read(fd, buf)
		if err != nil {
			return "", errnoOp("read", err), true
		}
		return "read: " + string(buf[:n]), nil, true
	case "r6_ioctl":
		// ioctl(open(a.Path, O_RDONLY), a.N, &int(a.M)).
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != nil {
			return "", errnoOp("open", err), true
		}
		defer syscall.Close(fd)
		arg := make([]byte, 256)
		*(*int64)(unsafe.Pointer(&arg[0])) = int64(a.M)
		r, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), uintptr(uint32(a.N)), uintptr(unsafe.Pointer(&arg[0])))
		if e != 0 {
			return "", errnoOp("ioctl", e), true
		}
		return fmt.Sprintf("ioctl: %d", r), nil, true
	case "r6_lease":
		// A read lease on a.Path, kept for the worker's life.
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("open", err), true
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK); err != nil {
			syscall.Close(fd)
			return "", errnoOp("F_SETLEASE", err), true
		}
		r6Kept["lease"] = fd
		return "leased", nil, true
	case "r6_inotify_instances":
		// Makes inotify instances until it may not, a.N at most, and
		// keeps them; with a.M 1 it closes those it kept.
		if a.M == 1 {
			for k, fd := range r6Kept {
				if strings.HasPrefix(k, "inotify") {
					syscall.Close(fd)
					delete(r6Kept, k)
				}
			}
			return "closed", nil, true
		}
		n := 0
		for ; n < a.N; n++ {
			fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
			if err != nil {
				return fmt.Sprintf("%d made, then %s", n, errnoName(err)), nil, true
			}
			r6Kept[fmt.Sprint("inotify", n)] = fd
		}
		return fmt.Sprintf("%d made", n), nil, true
	case "r6_mapshared":
		// a.N MiB of a.Path mapped shared and read only, read once a page:
		// of /dev/zero, shared memory (shmem), which no data limit counts.
		// Kept.
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("open", err), true
		}
		defer syscall.Close(fd)
		b, err := unix.Mmap(fd, 0, a.N<<20, unix.PROT_READ, unix.MAP_SHARED)
		if err != nil {
			return "", errnoOp("mmap", err), true
		}
		var sum byte
		for i := 0; i < len(b); i += 4096 {
			sum += b[i]
		}
		r6Kept[fmt.Sprint("map", len(r6Kept))] = len(b)
		return fmt.Sprintf("%d MiB read (%d)", a.N, sum), nil, true
	case "r6_sockfill":
		// Unix stream socket pairs, each side's send buffer grown (unless
		// a.N is 1) and filled, until a.M MiB are queued in the kernel or
		// descriptors run out; kept.
		total, pairs := 0, 0
		buf := make([]byte, 64<<10)
		for total < a.M<<20 {
			fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC|syscall.SOCK_NONBLOCK, 0)
			if err != nil {
				if pairs == 0 {
					return "", errnoOp("socketpair", err), true
				}
				break
			}
			pairs++
			for _, fd := range fds {
				if a.N == 0 {
					syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4<<20)
				}
				for total < a.M<<20 {
					n, err := syscall.Write(fd, buf)
					if err != nil || n <= 0 {
						break
					}
					total += n
				}
				r6Kept[fmt.Sprint("sock", fd)] = fd
			}
		}
		return fmt.Sprintf("%d MiB queued", total>>20), nil, true
	}
	return "", fmt.Errorf("%w: no tool %q", errBadArgs, id), true
}
