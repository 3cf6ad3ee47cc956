//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// TestDeepTempTreeRemoved: a worker's temp directory goes with the
// worker, whatever its tool left there. os.RemoveAll holds a descriptor
// for each level of the tree it removes, and a tool with write_files
// made a chain of directories deeper than the agent's RLIMIT_NOFILE
// (20,000 here; the test lowers its own to 256 and makes 600): the
// removal failed with EMFILE, having held every descriptor the agent
// may open meanwhile (its connections and the next workers' pipes
// failed), and the chain, the worker's temp directory and the pool's
// stayed after the pool closed. The pool now empties a tree without
// descending into it: each directory's entries move up, two
// descriptors open at most.
func TestDeepTempTreeRemoved(t *testing.T) {
	const depth, files = 600, 256
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	if old.Cur > files {
		lower := unix.Rlimit{Cur: files, Max: old.Max}
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lower); err != nil {
			t.Fatal(err)
		}
		defer unix.Setrlimit(unix.RLIMIT_NOFILE, &old)
	}
	d := newDirs(t)
	// Whatever the pool leaves, the test removes (rm descends one level
	// at a time).
	defer exec.Command("rm", "-rf", d.temp).Run()
	p := newPool(t, d, nil)
	for _, caps := range []tool.Capability{tool.WriteFiles | tool.Unsafe, tool.WriteFiles | tool.Exec | tool.ReadFiles | tool.Unsafe} {
		if got, err := call(t, p, "r11_deep#"+caps.String(), caps, r9Args{N: depth}); err != nil {
			t.Fatalf("%s: %q, %v", caps, got, err)
		}
	}
	p.Close()
	if ents, err := os.ReadDir(d.temp); err != nil || len(ents) != 0 {
		var left []string
		for _, e := range ents {
			left = append(left, e.Name())
		}
		t.Errorf("left in the temp directory after the pool closed: %q, %v; want nothing", left, err)
	}
}
