package sandbox

import (
	"net"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestNetworkIsTheInternetFamilies: a tool that may use the network
// reaches it over IPv4 and IPv6, and reads its interfaces (NETLINK_ROUTE,
// as net.Interfaces does); it makes no socket of another family. A unix
// socket by its path is a daemon's door, docker.sock as good as root on
// the machine, and Landlock before ABI 9 does not see a connect by path:
// a tool with network connected to a socket outside its workspace. The
// other families reach the hypervisor's services (vsock) or the kernel's
// crypto (AF_ALG), and asking for one loads its module.
func TestNetworkIsTheInternetFamilies(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	d := newDirs(t)
	sock := filepath.Join(d.other, "daemon.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.Network, tool.Network | tool.Exec, tool.Network | tool.ReadFiles | tool.WriteFiles | tool.Env} {
		got, err := call(t, p, "r8_unix", caps, r8Args{Path: sock})
		wantErrno(t, "a unix socket by its path, "+caps.String(), err, "EPERM")
		if err == nil {
			t.Errorf("%s: %s to %s", caps, got, sock)
		}
		for _, f := range []struct {
			name   string
			family int
			typ    int
			proto  string
			made   bool
		}{
			{"IPv4 stream", unix.AF_INET, unix.SOCK_STREAM, "", true},
			{"IPv4 datagram", unix.AF_INET, unix.SOCK_DGRAM, "", true},
			{"IPv6 stream", unix.AF_INET6, unix.SOCK_STREAM, "", true},
			{"netlink route", unix.AF_NETLINK, unix.SOCK_RAW, "", true},
			{"netlink sock_diag", unix.AF_NETLINK, unix.SOCK_RAW, "other", false},
			{"unix datagram", unix.AF_UNIX, unix.SOCK_DGRAM, "", false},
			{"vsock", unix.AF_VSOCK, unix.SOCK_STREAM, "", false},
			{"AF_ALG", unix.AF_ALG, unix.SOCK_SEQPACKET, "", false},
			{"TIPC", unix.AF_TIPC, unix.SOCK_RDM, "", false},
		} {
			got, err := call(t, p, "r8_family", caps, r8Args{N: f.family, M: f.typ, Path: f.proto})
			switch {
			case f.made && (err != nil || got != "made"):
				t.Errorf("%s: a socket of %s: %q, %v; want it made", caps, f.name, got, err)
			case !f.made:
				wantErrno(t, caps.String()+": a socket of "+f.name, err, "EPERM")
			}
		}
	}
	// The positive control: the same probe in process, as the agent's
	// own code would.
	got, err, _ := probeSet8(t.Context(), "r8_unix", []byte(`{"path":"`+sock+`"}`))
	if err != nil || got != "connected" {
		t.Errorf("the probe outside a worker: %q, %v; want connected", got, err)
	}
}
