//go:build linux

package sandbox

import (
	"context"
	"encoding/hex"
	"encoding/json"
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
	// Hex is the argument buffer of r6_ioctl, hex-encoded, when set.
	Hex string `json:"hex,omitempty"`
}

// r6Kept are descriptors an r6_ probe keeps open across calls.
var r6Kept = map[string]int{}

// review6Probe runs the r6_ probes of a sixth hostile-author review. ok
// is false for another id.
func review6Probe(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, _, _ := strings.Cut(fullID, "#")
	if !strings.HasPrefix(id, "r6_") {
		return "", nil, false
	}
	var a r6Args
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return "", fmt.Errorf("%w: %v", errBadArgs, err), true
		}
	}
	errno := func(op string, e error) error { return fmt.Errorf("%s: %s", op, errnoName(e)) }
	switch id {
	case "r6_growsdown":
		// a.N MiB of private anonymous memory mapped MAP_GROWSDOWN,
		// touched: the kernel counts such a mapping as stack, not data.
		b, err := unix.Mmap(-1, 0, a.N<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_GROWSDOWN)
		if err != nil {
			return "", errno("mmap", err), true
		}
		if a.M == 0 {
			defer unix.Munmap(b)
		}
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		return fmt.Sprintf("%d MiB touched", len(b)>>20), nil, true
	case "r6_devzero":
		// a.N MiB of a shared mapping of a.Path (/dev/zero), opened
		// read-only, read page by page: shmem pages.
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errno("open", err), true
		}
		defer syscall.Close(fd)
		b, err := unix.Mmap(fd, 0, a.N<<20, unix.PROT_READ, unix.MAP_SHARED)
		if err != nil {
			return "", errno("mmap", err), true
		}
		if a.M == 0 {
			defer unix.Munmap(b)
		}
		var sum byte
		for i := 0; i < len(b); i += 4096 {
			sum += b[i]
		}
		return fmt.Sprintf("%d MiB read (%d); %s", len(b)>>20, sum, r6Status("VmRSS", "RssShmem")), nil, true
	case "r6_memfd_secret":
		// memfd_secret(2), and a.N MiB of it mapped and touched, kept
		// when a.M is 1.
		fd, _, e := syscall.Syscall(unix.SYS_MEMFD_SECRET, 0, 0, 0)
		if e != 0 {
			return "", errno("memfd_secret", e), true
		}
		defer syscall.Close(int(fd))
		if a.N == 0 {
			return "made", nil, true
		}
		if err := syscall.Ftruncate(int(fd), int64(a.N)<<20); err != nil {
			return "", errno("ftruncate", err), true
		}
		b, err := unix.Mmap(int(fd), 0, a.N<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
		if err != nil {
			return "", errno("mmap", err), true
		}
		if a.M == 0 {
			defer unix.Munmap(b)
		}
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		return fmt.Sprintf("%d MiB touched", len(b)>>20), nil, true
	case "r6_syslog":
		// The kernel's log through syslog(2): a.N is the action.
		buf := make([]byte, 1<<16)
		n, _, e := syscall.Syscall(syscall.SYS_SYSLOG, uintptr(a.N), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		if e != 0 {
			return "", errno("syslog", e), true
		}
		if a.N == 3 || a.N == 2 || a.N == 4 {
			return fmt.Sprintf("%d bytes: %.80q", n, buf[:n]), nil, true
		}
		return fmt.Sprint(n), nil, true
	case "r6_readdev":
		// Reads what is waiting on a.Path (a terminal), without blocking.
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errno("open", err), true
		}
		defer syscall.Close(fd)
		buf := make([]byte, 256)
		n, err := syscall.Read(fd, buf)
		if err != nil {
			return "", errno("read", err), true
		}
		return "read: " + string(buf[:n]), nil, true
	case "r6_socketpair":
		// socketpair(a.N, a.M|SOCK_CLOEXEC).
		fds, err := syscall.Socketpair(a.N, a.M|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return "", errno("socketpair", err), true
		}
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return "made", nil, true
	case "r6_ioctl":
		// ioctl(open(a.Path, O_RDONLY), a.N, &int(a.M)).
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != nil {
			return "", errno("open", err), true
		}
		defer syscall.Close(fd)
		arg := make([]byte, 256)
		*(*int64)(unsafe.Pointer(&arg[0])) = int64(a.M)
		if a.Hex != "" {
			if _, err := hex.Decode(arg, []byte(a.Hex)); err != nil {
				return "", fmt.Errorf("%w: %v", errBadArgs, err), true
			}
		}
		r, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), uintptr(uint32(a.N)), uintptr(unsafe.Pointer(&arg[0])))
		if e != 0 {
			return "", errno("ioctl", e), true
		}
		return fmt.Sprintf("ioctl: %d", r), nil, true
	case "r6_lease":
		// A read lease on a.Path, kept for the worker's life.
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errno("open", err), true
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK); err != nil {
			syscall.Close(fd)
			return "", errno("F_SETLEASE", err), true
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
	case "r6_mmapwrite":
		// Writes "hijacked" over the start of a.Path through a shared
		// writable mapping, and reports the mode it has after.
		fd, err := syscall.Open(a.Path, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errno("open", err), true
		}
		defer syscall.Close(fd)
		b, err := unix.Mmap(fd, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
		if err != nil {
			return "", errno("mmap", err), true
		}
		copy(b, "hijacked")
		unix.Msync(b, unix.MS_SYNC)
		unix.Munmap(b)
		var st syscall.Stat_t
		syscall.Fstat(fd, &st)
		return fmt.Sprintf("mode %#o", st.Mode&0o7777), nil, true
	case "r6_raw":
		// A raw system call a.N with the path a.Path as its second
		// argument and a.M as its third, from AT_FDCWD.
		pp, _ := syscall.BytePtrFromString(a.Path)
		fdcwd := unix.AT_FDCWD
		atFDCWD := uintptr(fdcwd)
		r, _, e := syscall.Syscall6(uintptr(a.N), atFDCWD, uintptr(unsafe.Pointer(pp)), uintptr(a.M), 0, 0, 0)
		if e != 0 {
			return "", errno(fmt.Sprint("syscall ", a.N), e), true
		}
		return fmt.Sprint(r), nil, true
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
					return "", errno("socketpair", err), true
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
	case "r6_prctl":
		r, _, e := syscall.Syscall6(syscall.SYS_PRCTL, uintptr(a.N), uintptr(a.M), 0, 0, 0, 0)
		if e != 0 {
			return "", errno("prctl", e), true
		}
		return fmt.Sprint(r), nil, true
	}
	return "", fmt.Errorf("%w: no tool %q", errBadArgs, id), true
}

// r6Status returns the named lines of /proc/self/status.
func r6Status(names ...string) string {
	b, _ := os.ReadFile("/proc/self/status")
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, n := range names {
			if strings.HasPrefix(l, n+":") {
				out = append(out, strings.Join(strings.Fields(l), " "))
			}
		}
	}
	return strings.Join(out, ", ")
}
