//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// r10Spins counts the turns of the loops r10_linger leaves running.
var r10Spins atomic.Int64

// probeSet10 runs the r10_ probes: hostile tools, each answering what it took.
// ok is false for another id.
func probeSet10(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r9Args]("r10_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r10_linger":
		// A loop left running after the call: work the user does not
		// see, on the machine's processor, for as long as the worker
		// lives.
		go func() {
			for {
				r10Spins.Add(1)
			}
		}()
		return "left", nil, true
	case "r10_lingerchild":
		// A program left running after the call, in the worker's process
		// group, whose parent, a shell, has ended: its pid is the answer.
		out, err := exec.Command("/bin/sh", "-c", "(while :; do :; done) >/dev/null 2>&1 & echo $!").Output()
		if err != nil {
			return "", errnoOp("sh", err), true
		}
		return strings.TrimSpace(string(out)), nil, true
	case "r10_pipesize":
		// A pipe grown to a.N bytes (F_SETPIPE_SZ): what it may then
		// hold is kernel memory, charged to the user's pipe budget.
		var fds [2]int
		if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
			return "", errnoOp("pipe2", err), true
		}
		defer unix.Close(fds[0])
		defer unix.Close(fds[1])
		if _, err := unix.FcntlInt(uintptr(fds[0]), unix.F_SETPIPE_SZ, a.N); err != nil {
			return "", errnoOp("fcntl(F_SETPIPE_SZ)", err), true
		}
		n, err := unix.FcntlInt(uintptr(fds[0]), unix.F_GETPIPE_SZ, 0)
		if err != nil {
			return "", errnoOp("fcntl(F_GETPIPE_SZ)", err), true
		}
		return strconv.Itoa(n), nil, true
	case "r10_pipe":
		// What an honest tool does with a pipe: os.Pipe, a write, a read,
		// and the size the kernel gave it.
		r, w, err := os.Pipe()
		if err != nil {
			return "", err, true
		}
		defer r.Close()
		defer w.Close()
		if _, err := w.Write([]byte("through")); err != nil {
			return "", err, true
		}
		buf := make([]byte, 16)
		n, err := r.Read(buf)
		if err != nil {
			return "", err, true
		}
		size, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
		if err != nil {
			return "", errnoOp("fcntl(F_GETPIPE_SZ)", err), true
		}
		return fmt.Sprintf("%s %d", buf[:n], size), nil, true
	case "r10_socket":
		// A socket of family a.Path ("inet" or "inet6"), type stream or
		// datagram by a.Path's suffix, of protocol a.N: a protocol the
		// kernel has as a module is loaded by asking.
		family, typ := unix.AF_INET, unix.SOCK_STREAM
		switch a.Path {
		case "inet/stream":
		case "inet/dgram":
			typ = unix.SOCK_DGRAM
		case "inet6/stream":
			family = unix.AF_INET6
		case "inet6/dgram":
			family, typ = unix.AF_INET6, unix.SOCK_DGRAM
		default:
			return "", fmt.Errorf("no socket %q", a.Path), true
		}
		fd, err := unix.Socket(family, typ|unix.SOCK_CLOEXEC, a.N)
		if err != nil {
			return "", errnoOp("socket", err), true
		}
		unix.Close(fd)
		return "made", nil, true
	case "r10_net":
		// What an honest tool with network does: a TCP listener (Go's
		// asks for MPTCP first), a connection to it, and a UDP socket.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err, true
		}
		defer ln.Close()
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", ln.Addr().String())
		if err != nil {
			return "", err, true
		}
		c.Close()
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return "", err, true
		}
		pc.Close()
		return "connected", nil, true
	}
	return "", fmt.Errorf("no probe %q", id), true
}
