//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hostileArgs are the arguments of the hx_ probes.
type hostileArgs struct {
	Path  string `json:"path,omitempty"`
	Name  string `json:"name,omitempty"`
	Value string `json:"value,omitempty"`
	N     int    `json:"n,omitempty"`
}

// printGIDsArg makes the test binary print its real and effective group
// ids: a set-group-ID copy of it shows whether executing one gains them.
const printGIDsArg = "-sandbox-test-print-gids"

func init() {
	if len(os.Args) > 1 && os.Args[1] == printGIDsArg {
		fmt.Printf("gid %d egid %d\n", os.Getgid(), os.Getegid())
		os.Exit(0)
	}
}

// hxKept are descriptors a probe keeps open across calls.
var hxKept = map[string]int{}

// hostileProbe runs the hx_ probes: further attempts of a hostile tool
// author. ok is false for another id.
func hostileProbe(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[hostileArgs]("hx_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "hx_dgram":
		// Without the network capability: a unix datagram socket made
		// by socketpair(2), which the filter allows, sent to the socket
		// at a.Path (a pathname, or @name for an abstract one).
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("socketpair", err), true
		}
		defer syscall.Close(fds[0])
		defer syscall.Close(fds[1])
		if err := syscall.Sendto(fds[0], []byte("from the worker"), 0, &syscall.SockaddrUnix{Name: a.Path}); err != nil {
			return "", errnoOp("sendto", err), true
		}
		return "sent", nil, true
	case "hx_dgram_listen":
		// A socketpair datagram socket bound to the abstract name a.Name
		// (in the host's network namespace) and kept open; a second call
		// with N=1 reads what arrived on it.
		if a.N == 1 {
			fd, ok := hxKept[a.Name]
			if !ok {
				return "", fmt.Errorf("no socket kept"), true
			}
			buf := make([]byte, 256)
			n, _, err := syscall.Recvfrom(fd, buf, syscall.MSG_DONTWAIT)
			if err != nil {
				return "", errnoOp("recvfrom", err), true
			}
			return "received: " + string(buf[:n]), nil, true
		}
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return "", errnoOp("socketpair", err), true
		}
		if a.N == 2 {
			// Forget the peer: connect(AF_UNSPEC) disconnects a datagram socket.
			sa := syscall.RawSockaddr{Family: syscall.AF_UNSPEC}
			if _, _, e := syscall.RawSyscall(syscall.SYS_CONNECT, uintptr(fds[0]), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa)); e != 0 {
				return "", errnoOp("connect(AF_UNSPEC)", e), true
			}
		}
		if err := syscall.Bind(fds[0], &syscall.SockaddrUnix{Name: a.Name}); err != nil {
			return "", errnoOp("bind", err), true
		}
		hxKept[a.Name] = fds[0]
		return "bound", nil, true
	case "hx_shared":
		// a.N MiB of shared anonymous memory, touched: RLIMIT_DATA
		// counts private writable mappings only.
		b, err := unix.Mmap(-1, 0, a.N<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_ANONYMOUS)
		if err != nil {
			return "", errnoOp("mmap", err), true
		}
		defer unix.Munmap(b)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		return fmt.Sprintf("%d MiB touched", len(b)>>20), nil, true
	case "hx_sysvshm":
		// a.N MiB of System V shared memory, attached and touched.
		id, err := unix.SysvShmGet(unix.IPC_PRIVATE, a.N<<20, unix.IPC_CREAT|0o600)
		if err != nil {
			return "", errnoOp("shmget", err), true
		}
		defer unix.SysvShmCtl(id, unix.IPC_RMID, nil)
		b, err := unix.SysvShmAttach(id, 0, 0)
		if err != nil {
			return "", errnoOp("shmat", err), true
		}
		defer unix.SysvShmDetach(b)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		return fmt.Sprintf("%d MiB touched", len(b)>>20), nil, true
	case "hx_sysvipc":
		// A System V semaphore set of 32,000 (about 2 MiB of kernel
		// memory) and a message queue: a.Name says which.
		var e syscall.Errno
		switch a.Name {
		case "sem":
			_, _, e = syscall.RawSyscall(unix.SYS_SEMGET, unix.IPC_PRIVATE, 32000, unix.IPC_CREAT|0o600)
		case "msg":
			_, _, e = syscall.RawSyscall(unix.SYS_MSGGET, unix.IPC_PRIVATE, unix.IPC_CREAT|0o600, 0)
		default:
			return "", fmt.Errorf("%w: hx_sysvipc of %q", errBadArgs, a.Name), true
		}
		if e != 0 {
			return "", errnoOp(a.Name+"get", e), true
		}
		return "made", nil, true
	case "hx_rename":
		// Renames a.Path to a.Value.
		if err := os.Rename(a.Path, a.Value); err != nil {
			return "", errnoOp("rename", err), true
		}
		return "renamed", nil, true
	case "hx_setxattr":
		// An extended attribute set on a.Path: a.Name = a.Value, the
		// value hex-decoded when it starts with "hex:".
		val := []byte(a.Value)
		if h, ok := strings.CutPrefix(a.Value, "hex:"); ok {
			val = make([]byte, len(h)/2)
			fmt.Sscanf(h, "%x", &val)
		}
		if err := unix.Lsetxattr(a.Path, a.Name, val, 0); err != nil {
			return "", errnoOp("setxattr", err), true
		}
		return "set", nil, true
	case "hx_file_setattr":
		// file_setattr(2) (Linux 6.17): the file's fsxattr flags, a.N.
		var fa [24]byte
		*(*uint64)(unsafe.Pointer(&fa[0])) = uint64(a.N)
		p, _ := syscall.BytePtrFromString(a.Path)
		dfd := unix.AT_FDCWD
		_, _, e := syscall.Syscall6(469, uintptr(dfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&fa[0])), 24, 0, 0)
		if e != 0 {
			return "", errnoOp("file_setattr", e), true
		}
		return "set", nil, true
	case "hx_biganswer":
		// An answer of a.N MiB.
		return strings.Repeat("x", a.N<<20), nil, true
	case "hx_createmode":
		// Creates a.Path with the raw mode a.N and reports the mode it got.
		fd, err := syscall.Open(a.Path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, uint32(a.N))
		if err != nil {
			return "", errnoOp("open", err), true
		}
		syscall.Close(fd)
		var st syscall.Stat_t
		syscall.Stat(a.Path, &st)
		return fmt.Sprintf("mode %#o", st.Mode&0o7777), nil, true
	case "hx_sgid":
		// A set-group-ID program with content: created set-group-ID
		// without group execute (a write does not clear that bit then),
		// filled with the worker's own executable, and given group
		// execute by a POSIX ACL, which keeps the bit for a member of
		// the file's group.
		fd, err := syscall.Open(a.Path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o2745)
		if err != nil {
			return "", errnoOp("open", err), true
		}
		exe, _ := os.Executable()
		body, err := os.ReadFile(exe)
		if err != nil {
			syscall.Close(fd)
			return "", errnoOp("read exe", err), true
		}
		if _, err := syscall.Write(fd, body); err != nil {
			syscall.Close(fd)
			return "", errnoOp("write", err), true
		}
		syscall.Close(fd)
		acl := []byte{2, 0, 0, 0, 1, 0, 7, 0, 0xff, 0xff, 0xff, 0xff, 4, 0, 5, 0, 0xff, 0xff, 0xff, 0xff, 0x20, 0, 5, 0, 0xff, 0xff, 0xff, 0xff}
		if err := unix.Setxattr(a.Path, "system.posix_acl_access", acl, 0); err != nil {
			return "", errnoOp("setxattr", err), true
		}
		var st syscall.Stat_t
		if err := syscall.Stat(a.Path, &st); err != nil {
			return "", errnoOp("stat", err), true
		}
		return fmt.Sprintf("mode %#o uid %d gid %d size %d", st.Mode&0o7777, st.Uid, st.Gid, st.Size), nil, true
	case "hx_write":
		// Writes a.Value to a.Path, creating it and its directories.
		if err := os.MkdirAll(filepath.Dir(a.Path), 0o755); err != nil {
			return "", errnoOp("mkdir", err), true
		}
		if err := os.WriteFile(a.Path, []byte(a.Value), 0o755); err != nil {
			return "", errnoOp("write", err), true
		}
		return "written", nil, true
	case "hx_inotify":
		if a.N == 1 {
			return hostileProbe(ctx, "hx_inotify_read", nil)
		}
		fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
		if err != nil {
			return "", errnoOp("inotify_init", err), true
		}
		if _, err := unix.InotifyAddWatch(fd, a.Path, unix.IN_ALL_EVENTS); err != nil {
			syscall.Close(fd)
			return "", errnoOp("inotify_add_watch", err), true
		}
		hxKept["inotify"] = fd
		return "watching", nil, true
	case "hx_inotify_read":
		fd := hxKept["inotify"]
		buf := make([]byte, 4096)
		n, err := syscall.Read(fd, buf)
		if err != nil {
			return "", errnoOp("read", err), true
		}
		var names []string
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nb := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			names = append(names, strings.TrimRight(string(nb), "\x00"))
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
		return strings.Join(names, ","), nil, true
	}
	return "", fmt.Errorf("%w: no tool %q", errBadArgs, id), true
}
