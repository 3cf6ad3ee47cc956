//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeSet12 runs the r12_ probes: hostile tools, each
// answering what it took. ok is false for another id.
func probeSet12(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r9Args]("r12_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r12_flowlabel":
		// IPv6 flow labels, up to 32 on each of a.N sockets, each
		// closed once it holds what the kernel gives it: a label lingers
		// 150 s after its socket closes. The kernel counts them for the
		// whole machine (4,096), and past three quarters of that refuses
		// every process without CAP_NET_ADMIN. The answer is the labels
		// taken.
		taken := 0
		for range a.N {
			fd, err := unix.Socket(unix.AF_INET6, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				return "", errnoOp("socket", err), true
			}
			held := 0
			for range 32 {
				err := flowLabel(fd, 150)
				if err != nil && taken == 0 {
					unix.Close(fd)
					return "", errnoOp("setsockopt(IPV6_FLOWLABEL_MGR)", err), true
				}
				if err != nil {
					break
				}
				held++
				taken++
			}
			unix.Close(fd)
			if held == 0 {
				return fmt.Sprintf("%d labels taken, then ENOBUFS", taken), nil, true
			}
		}
		return fmt.Sprintf("%d labels taken", taken), nil, true
	case "r12_shmlock":
		// a.N System V segments of 1 MiB, each locked in memory
		// (SHM_LOCK), which the kernel counts against the locked memory
		// of the user. Kept; the answer is the bytes locked. With a.Path
		// "free", the segments kept are removed instead.
		if a.Path == "free" {
			for _, id := range r12Segments {
				unix.SysvShmCtl(id, unix.IPC_RMID, nil)
			}
			r12Segments = nil
			return "removed", nil, true
		}
		locked := 0
		for range a.N {
			id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 1<<20, unix.IPC_CREAT|0o600)
			if err != nil {
				return "", errnoOp("shmget", err), true
			}
			r12Segments = append(r12Segments, id)
			if _, err := unix.SysvShmCtl(id, 11 /* SHM_LOCK */, nil); err != nil {
				if locked == 0 {
					unix.SysvShmCtl(id, unix.IPC_RMID, nil)
					r12Segments = r12Segments[:len(r12Segments)-1]
					return "", errnoOp("shmctl(SHM_LOCK)", err), true
				}
				return fmt.Sprintf("%d bytes locked, then %s", locked, errnoName(err)), nil, true
			}
			locked += 1 << 20
		}
		return fmt.Sprintf("%d bytes locked", locked), nil, true
	case "r12_sigio":
		// A pipe whose owner (F_SETOWN) is the worker's parent, with
		// O_ASYNC and signal SIGWINCH (F_SETSIG): a write to it signals
		// the owner, after a check of the file's owner, not of the
		// writer.
		pid := os.Getppid()
		if a.N != 0 {
			pid = a.N
		}
		var fds [2]int
		if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
			return "", errnoOp("pipe2", err), true
		}
		defer unix.Close(fds[0])
		defer unix.Close(fds[1])
		if _, err := unix.FcntlInt(uintptr(fds[0]), unix.F_SETOWN, pid); err != nil {
			return "", errnoOp("F_SETOWN", err), true
		}
		if _, err := unix.FcntlInt(uintptr(fds[0]), unix.F_SETSIG, int(unix.SIGWINCH)); err != nil {
			return "", errnoOp("F_SETSIG", err), true
		}
		if _, err := unix.FcntlInt(uintptr(fds[0]), unix.F_SETFL, unix.O_ASYNC); err != nil {
			return "", errnoOp("F_SETFL", err), true
		}
		if _, err := unix.Write(fds[1], []byte("x")); err != nil {
			return "", errnoOp("write", err), true
		}
		return fmt.Sprintf("owner %d signalled", pid), nil, true
	case "r12_mounts":
		// The mounts of the worker's mount namespace, listed
		// (listmount) and each one's mount point and source read
		// (statmount): the answer is how many, and those mount points.
		req := struct {
			size, nsFD uint32
			mntID      uint64
			param      uint64
		}{size: 24, mntID: ^uint64(0)} // LSMT_ROOT
		ids := make([]uint64, 512)
		n, _, errno := unix.Syscall6(unix.SYS_LISTMOUNT, uintptr(unsafe.Pointer(&req)), uintptr(unsafe.Pointer(&ids[0])), uintptr(len(ids)), 0, 0, 0)
		if errno != 0 {
			return "", errnoOp("listmount", errno), true
		}
		var points []string
		buf := make([]byte, 64<<10)
		for _, id := range ids[:n] {
			req.mntID, req.param = id, 0x10|0x200 // STATMOUNT_MNT_POINT, STATMOUNT_SB_SOURCE
			if _, _, errno := unix.Syscall6(unix.SYS_STATMOUNT, uintptr(unsafe.Pointer(&req)), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0, 0); errno != 0 {
				return "", errnoOp("statmount", errno), true
			}
			// struct statmount: mnt_point at 108, its strings from 512.
			off := 512 + int(*(*uint32)(unsafe.Pointer(&buf[108])))
			end := off
			for end < len(buf) && buf[end] != 0 {
				end++
			}
			points = append(points, string(buf[off:end]))
		}
		return fmt.Sprintf("%d mounts: %s", n, strings.Join(points, " ")), nil, true
	case "r12_xattr":
		// The extended attributes of the file a.Path, listed and read.
		buf := make([]byte, 4096)
		n, err := unix.Listxattr(a.Path, buf)
		if err != nil {
			return "", errnoOp("listxattr", err), true
		}
		var got []string
		for name := range strings.SplitSeq(strings.TrimRight(string(buf[:n]), "\x00"), "\x00") {
			val := make([]byte, 4096)
			m, err := unix.Getxattr(a.Path, name, val)
			if err != nil {
				return "", errnoOp("getxattr", err), true
			}
			got = append(got, name+"="+string(val[:m]))
		}
		return strings.Join(got, ","), nil, true
	case "r12_link":
		// A hard link at dst to the file src (a.Path is "src|dst"),
		// then a write through it.
		src, dst, _ := strings.Cut(a.Path, "|")
		if err := unix.Link(src, dst); err != nil {
			return "", errnoOp("link", err), true
		}
		if err := os.WriteFile(dst, []byte("changed"), 0o644); err != nil {
			return "linked", err, true
		}
		return "linked and written", nil, true
	case "r12_tmpsecret":
		// a.Path written to a file of the worker's temp directory: the
		// answer is the file's path.
		f, err := os.CreateTemp("", "secret")
		if err != nil {
			return "", err, true
		}
		defer f.Close()
		if _, err := f.WriteString(a.Path); err != nil {
			return "", err, true
		}
		return f.Name(), nil, true
	}
	return "", fmt.Errorf("no probe %q", id), true
}

// r12Segments are the System V segments the r12_ probes keep across
// calls; they end with their worker.
var r12Segments []int

// flowLabel asks the kernel for a new exclusive IPv6 flow label on fd
// (IPV6_FLOWLABEL_MGR, IPV6_FL_A_GET with IPV6_FL_F_CREATE), held linger
// seconds after fd closes.
func flowLabel(fd int, linger uint16) error {
	// struct in6_flowlabel_req.
	var req struct {
		dst     [16]byte
		label   uint32
		action  uint8
		share   uint8
		flags   uint16
		expires uint16
		linger  uint16
		pad     uint32
	}
	req.dst[15] = 1 // ::1: the kernel takes no label for any address
	req.action = 0  // IPV6_FL_A_GET
	req.share = 1   // IPV6_FL_S_EXCL
	req.flags = 1   // IPV6_FL_F_CREATE
	req.linger = linger
	req.expires = linger
	_, _, errno := unix.Syscall6(unix.SYS_SETSOCKOPT, uintptr(fd), unix.IPPROTO_IPV6, 32 /* IPV6_FLOWLABEL_MGR */, uintptr(unsafe.Pointer(&req)), unsafe.Sizeof(req), 0)
	if errno != 0 {
		return errno
	}
	return nil
}
