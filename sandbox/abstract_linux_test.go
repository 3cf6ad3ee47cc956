//go:build linux

package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNoAbstractNamesTaken: a tool with network makes no unix socket
// but the ends of a stream pair, and an end may be bound to a name in
// the abstract namespace of the worker's network namespace, the
// machine's. A tool with network (and one with exec too) bound
// @toolreg-squat-… and kept it across calls, and the test's own bind of
// the name, as an X server's of @/tmp/.X11-unix/X0 or a container
// shim's would, failed with EADDRINUSE. Landlock's scope sees
// connections, not names.
func TestNoAbstractNamesTaken(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, c := range []struct {
		caps tool.Capability
		want string
	}{
		{tool.Network | tool.Unsafe, "socketpair"},
		{tool.Network | tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Unsafe, "bind"},
	} {
		name := "toolreg-squat-" + c.caps.String()
		got, err := call(t, p, "r9_squat#"+c.caps.String(), c.caps, r9Args{Path: name})
		wantErrno(t, "an abstract name taken, "+c.caps.String(), err, "EPERM")
		if err == nil {
			t.Errorf("%s: %s", c.caps, got)
		}
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := unix.Bind(fd, &unix.SockaddrUnix{Name: "@" + name}); err != nil {
			t.Errorf("%s: after the tool's call, the name cannot be bound: %v", c.caps, err)
		}
		unix.Close(fd)
		// The positive control: TCP and UDP are bound as before.
		if got, err := call(t, p, "r9_listen#"+c.caps.String(), c.caps, r9Args{}); err != nil || got != "listened" {
			t.Errorf("%s: listening on the loopback address: %q, %v", c.caps, got, err)
		}
	}
}
