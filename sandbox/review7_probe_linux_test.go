//go:build linux

package sandbox

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// r7Args are the arguments of the r7_ probes.
type r7Args struct {
	Path string `json:"path,omitempty"`
	N    int    `json:"n,omitempty"`
	M    int    `json:"m,omitempty"`
}

// r7Kept are descriptors the r7_ probes keep open across calls.
var r7Kept []int

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
	case "r7_progress_done":
		// a.N reports that each say the work is complete (done at or
		// past total), done growing as an MCP client wants it; with a.M
		// 1 as frames written to the response pipe directly.
		var b []byte
		for i := range a.N {
			if a.M != 1 {
				tool.Progress(ctx, float64(i+1), 1, "complete")
				continue
			}
			var head [17]byte
			head[0] = frameProgress
			binary.BigEndian.PutUint64(head[1:9], math.Float64bits(float64(i+1)))
			binary.BigEndian.PutUint64(head[9:17], math.Float64bits(1))
			b, _ = writeFrame(rawResponses{}, b, head[:], []byte("complete"))
		}
		return "complete", nil, true
	case "r7_secretmem":
		// a.N MiB of secret memory (memfd_secret), mapped and touched
		// 4 MiB at a time, each window unmapped before the next: the
		// pages stay with the file, which is kept.
		fd, _, e := unix.RawSyscall(unix.SYS_MEMFD_SECRET, unix.O_CLOEXEC, 0, 0)
		if e != 0 {
			return "", errnoOp("memfd_secret", e), true
		}
		if err := unix.Ftruncate(int(fd), int64(a.N)<<20); err != nil {
			unix.Close(int(fd))
			return "", errnoOp("ftruncate", err), true
		}
		const window = 4 << 20
		for off := 0; off < a.N<<20; off += window {
			b, err := unix.Mmap(int(fd), int64(off), window, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
			if err != nil {
				unix.Close(int(fd))
				return "", fmt.Errorf("%s at %d MiB", errnoOp("mmap", err), off>>20), true
			}
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			unix.Munmap(b)
		}
		r7Kept = append(r7Kept, int(fd))
		return fmt.Sprintf("%d MiB touched", a.N), nil, true
	}
	return "", fmt.Errorf("%w: no probe %q", errBadArgs, id), true
}
