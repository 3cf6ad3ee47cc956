//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNoPortsSharedWithOthers: the kernel lets a socket join the port
// of a listener that set SO_REUSEPORT when both are of the same user,
// and spreads the connections to that port among them; the worker is
// the agent's user (as root, the user of the daemons that listen so:
// nginx, haproxy, unbound, coredns). A tool with network joined the
// port of such a listener, here the test's, and took a share of the
// connections meant for it, with what their clients sent. Landlock's
// TCP bind right is not handled for a tool with network, and the port
// was not free: the tool got it only by sharing. SO_REUSEPORT is
// refused to every tool; Go's net never sets it.
func TestNoPortsSharedWithOthers(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
		}); err != nil {
			return err
		}
		return serr
	}}
	ln, err := lc.Listen(context.Background(), "tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no SO_REUSEPORT listener here: %v", err)
	}
	defer ln.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	defer wg.Wait()
	defer ln.Close()

	p := newPool(t, newDirs(t), nil)
	for _, caps := range []tool.Capability{tool.Network | tool.Unsafe, tool.Network | tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Env | tool.Unsafe} {
		id := "#" + caps.String()
		got, err := call(t, p, "r11_reuseport"+id, caps, r9Args{Path: ln.Addr().String()})
		wantErrno(t, "joining another listener's port, "+caps.String(), err, "EPERM")
		if err == nil {
			// The clients of the test's listener send their requests.
			for i := range 64 {
				c, err := net.Dial("tcp4", ln.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(c, "request %d", i)
				c.Close()
			}
			taken, err := call(t, p, "r11_reuseport"+id, caps, r9Args{N: 1})
			t.Errorf("%s: the tool joined the test's port (%s) and took %d of 64 connections: %q, %v", caps, got, len(strings.Split(taken, ",")), taken, err)
		}
		// The positive control: Go's listeners, connections and UDP
		// sockets.
		if got, err := call(t, p, "r10_net"+id, caps, r9Args{}); err != nil || got != "connected" {
			t.Errorf("%s: an honest tool with network: %q, %v", caps, got, err)
		}
	}
}
