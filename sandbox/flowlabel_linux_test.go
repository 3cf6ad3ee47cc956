//go:build linux

package sandbox

import (
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoFlowLabelsOfTheMachine: the kernel counts IPv6 flow labels
// for the whole machine (4,096 in all, whatever the network namespace)
// and refuses every process without CAP_NET_ADMIN once three quarters
// are taken; a label lingers after its socket closes. A tool with
// network took them on 96 sockets and kept them, and another worker
// was then refused its first (ENOBUFS), as would be every program of
// the machine that asks for one. IPV6_FLOWLABEL_MGR is refused to every
// tool; Go's net never sets it.
func TestNoFlowLabelsOfTheMachine(t *testing.T) {
	t.Parallel()
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, caps := range []tool.Capability{tool.Network | tool.Unsafe, tool.Network | tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Env | tool.Unsafe} {
		id := "#" + caps.String()
		got, err := call(t, p, "r12_flowlabel"+id, caps, r9Args{N: 4096})
		// EAFNOSUPPORT where the kernel has no IPv6.
		wantErrno(t, "flow labels, "+caps.String(), err, "EPERM", "EAFNOSUPPORT")
		if err == nil {
			other, oerr := call(t, p, "r12_flowlabel#other"+id, caps, r9Args{N: 1})
			t.Errorf("%s: flow labels of the machine taken: %s; another worker's then: %q, %v", caps, got, other, oerr)
		}
		if got, err := call(t, p, "r10_net"+id, caps, r9Args{}); err != nil || got != "connected" {
			t.Errorf("%s: an honest tool with network: %q, %v", caps, got, err)
		}
	}
}
