//go:build linux

package sandbox

import (
	"context"
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// r7Args are the arguments of the r7_ probes.
type r7Args struct {
	Path string `json:"path,omitempty"`
	N    int    `json:"n,omitempty"`
	M    int    `json:"m,omitempty"`
}

// review7Probe runs the r7_ probes of a seventh hostile-author review.
// ok is false for another id.
func review7Probe(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r7Args]("r7_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r7_pdeathsig":
		// Sets the worker's parent-death signal to a.N and, when a.M is
		// 1, reports it as progress and blocks for good: a call still
		// running when the agent dies.
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(a.N), 0, 0, 0); err != nil {
			return "", errnoOp("prctl(PR_SET_PDEATHSIG)", err), true
		}
		if a.M != 1 {
			return "ok", nil, true
		}
		tool.Progress(ctx, 1, 2, "parent-death signal set")
		select {}
	}
	return "", fmt.Errorf("%w: no probe %q", errBadArgs, id), true
}
