//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// r8Args are the arguments of the r8_ probes.
type r8Args struct {
	Path string `json:"path,omitempty"`
	N    int    `json:"n,omitempty"`
	M    int    `json:"m,omitempty"`
}

// r8Kept are descriptors the r8_ probes keep open across calls.
var r8Kept []int

// probeSet8 runs the r8_ probes: hostile tools, each answering what it took.
// ok is false for another id.
func probeSet8(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r8Args]("r8_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r8_unix":
		// A unix stream socket connected to a.Path: a daemon's socket,
		// such as docker.sock, is as good as its daemon's rights.
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("socket", err), true
		}
		defer unix.Close(fd)
		if err := unix.Connect(fd, &unix.SockaddrUnix{Name: a.Path}); err != nil {
			return "", errnoOp("connect", err), true
		}
		return "connected", nil, true
	case "r8_family":
		// A socket of family a.N, of type a.M, protocol 0 but for
		// netlink, whose protocol is NETLINK_ROUTE (0) unless a.Path
		// says "other" (NETLINK_SOCK_DIAG).
		proto := 0
		if a.Path == "other" {
			proto = unix.NETLINK_SOCK_DIAG
		}
		fd, err := unix.Socket(a.N, a.M|unix.SOCK_CLOEXEC, proto)
		if err != nil {
			return "", errnoOp("socket", err), true
		}
		unix.Close(fd)
		return "made", nil, true
	case "r8_landlock":
		// Landlock rulesets, a.N at most, each with a rule for every TCP
		// port (65,536), kept: each rule is kernel memory.
		type rulesetAttr struct{ fs, net, scoped uint64 }
		type portAttr struct{ access, port uint64 }
		attr := rulesetAttr{net: 1 | 2} // LANDLOCK_ACCESS_NET_BIND_TCP, CONNECT_TCP
		rules, sets := 0, 0
		for range a.N {
			fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
			if e != 0 {
				if sets == 0 {
					return "", errnoOp("landlock_create_ruleset", e), true
				}
				break
			}
			sets++
			r8Kept = append(r8Kept, int(fd))
			for port := range 1 << 16 {
				pa := portAttr{access: 1 | 2, port: uint64(port)}
				if _, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, 2, uintptr(unsafe.Pointer(&pa)), 0, 0, 0); e != 0 {
					return "", fmt.Errorf("%s after %d rules", errnoOp("landlock_add_rule", e), rules), true
				}
				rules++
			}
		}
		return fmt.Sprintf("%d rules in %d rulesets", rules, sets), nil, true
	case "r8_utime":
		// Sets the access and modification times of a.Path to a.N
		// seconds after the epoch.
		ts := []unix.Timespec{{Sec: int64(a.N)}, {Sec: int64(a.N)}}
		if err := unix.UtimesNanoAt(unix.AT_FDCWD, a.Path, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return "", errnoOp("utimensat", err), true
		}
		return "ok", nil, true
	case "r8_ptys":
		// Opens a.Path, a terminal multiplexor, a.N times at most, and
		// keeps what it opened: a pseudo-terminal each.
		n := 0
		var last error
		for range a.N {
			fd, err := unix.Open(a.Path, unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
			if err != nil {
				last = err
				break
			}
			r8Kept = append(r8Kept, fd)
			n++
		}
		if n == 0 && last != nil {
			return "", errnoOp("open", last), true
		}
		return fmt.Sprintf("%d terminals (last error %v)", n, last), nil, true
	case "r8_seccomp":
		// In each of a.N threads, a.M seccomp filters of 4,096
		// instructions that allow everything; with a.Path "listener",
		// the last with a user-notification listener, whose descriptor
		// is kept (it holds the thread's filters), and the thread ends;
		// with a.Path "prctl", through prctl(PR_SET_SECCOMP).
		prog := make([]unix.SockFilter, 4096)
		for i := range prog[:len(prog)-1] {
			prog[i] = unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: uint32(4 * (i % 4))}
		}
		prog[len(prog)-1] = unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW}
		fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
		type result struct {
			n   int
			err error
		}
		filters := 0
		var last error
		for range a.N {
			done := make(chan result)
			go func() {
				runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
				n := 0
				for i := range a.M {
					flags := uintptr(0)
					if a.Path == "listener" && i == a.M-1 {
						flags = unix.SECCOMP_FILTER_FLAG_NEW_LISTENER
					}
					nr, op := uintptr(unix.SYS_SECCOMP), uintptr(unix.SECCOMP_SET_MODE_FILTER)
					if a.Path == "prctl" {
						nr, op = unix.SYS_PRCTL, unix.PR_SET_SECCOMP
						flags = unix.SECCOMP_MODE_FILTER
					}
					fd, _, e := unix.RawSyscall(nr, op, flags, uintptr(unsafe.Pointer(&fprog)))
					if e != 0 {
						done <- result{n, errnoOp("seccomp", e)}
						return
					}
					if a.Path == "listener" && i == a.M-1 {
						r8Kept = append(r8Kept, int(fd))
					}
					n++
				}
				done <- result{n, nil}
				if a.Path != "listener" {
					select {} // the thread and its filters stay
				}
			}()
			r := <-done
			filters += r.n
			if r.err != nil {
				last = r.err
				break
			}
		}
		if filters == 0 && last != nil {
			return "", last, true
		}
		return fmt.Sprintf("%d filters, %d instructions (last error %v)", filters, filters*len(prog), last), nil, true
	case "r8_locks":
		// Read locks on every other byte of each file below the
		// directory a.Path, from the end down, a.N on each of a.M files
		// at most, kept.
		n, files := 0, 0
		var last error
		filepath.WalkDir(a.Path, func(p string, e fs.DirEntry, err error) error {
			if err != nil || files >= a.M || !e.Type().IsRegular() || last != nil {
				return nil
			}
			fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
			if err != nil {
				last = errnoOp("open", err)
				return nil
			}
			r8Kept = append(r8Kept, fd)
			files++
			for i := a.N; i > 0; i-- {
				lk := unix.Flock_t{Type: unix.F_RDLCK, Start: int64(2 * i), Len: 1}
				if err := unix.FcntlFlock(uintptr(fd), unix.F_SETLK, &lk); err != nil {
					last = errnoOp("fcntl(F_SETLK)", err)
					return nil
				}
				n++
			}
			return nil
		})
		if n == 0 && last != nil {
			return "", last, true
		}
		return fmt.Sprintf("%d locks on %d files", n, files), nil, true
	case "r8_lockdir":
		// Leaves a directory "kept" in its TMPDIR with a file in it,
		// and takes every permission from the directory.
		kept := filepath.Join(os.Getenv("TMPDIR"), "kept")
		if err := os.Mkdir(kept, 0o700); err != nil {
			return "", err, true
		}
		if err := os.WriteFile(filepath.Join(kept, "f"), []byte("kept"), 0o600); err != nil {
			return "", err, true
		}
		if err := os.Chmod(kept, 0); err != nil {
			return "", err, true
		}
		return "ok", nil, true
	case "r8_threads":
		// a.N goroutines that each block in a system call, a thread each,
		// kept: the answer comes once each has started its call.
		debug.SetMaxThreads(a.N + 1000)
		fds := make([]int, 2)
		if err := unix.Pipe2(fds, unix.O_CLOEXEC); err != nil {
			return "", errnoOp("pipe2", err), true
		}
		r8Kept = append(r8Kept, fds...)
		started := make(chan struct{}, a.N)
		for range a.N {
			go func() {
				var b [1]byte
				started <- struct{}{}
				unix.Read(fds[0], b[:])
			}()
		}
		for range a.N {
			<-started
		}
		time.Sleep(100 * time.Millisecond) // the runtime starts a thread for each blocked call
		return fmt.Sprintf("%d goroutines blocked", a.N), nil, true
	}
	return "", fmt.Errorf("%w: no probe %q", errBadArgs, id), true
}
