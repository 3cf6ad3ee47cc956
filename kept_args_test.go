package toolreg

import (
	"runtime"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/registry"
)

// TestKeptStringDoesNotPinTheArguments keeps, as a tool that caches its
// arguments would, the 2-byte text of 64 calls of echo whose arguments
// are 1 MiB each (the default Limits.MaxArgs: {"text":"hi"} and white
// space), and checks that they keep far less than the 64 MiB of the
// arguments alive. A string shared with a large arguments text pins all
// of it.
func TestKeptStringDoesNotPinTheArguments(t *testing.T) {
	e, ok := testbox.Toolbox().Lookup("echo")
	if !ok {
		t.Fatal("no echo")
	}
	const n = 64
	head := `{"text":"hi"}`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make([]registry.Run, 0, n) // each holds the decoded EchoArgs
	for range n {
		args := head + strings.Repeat(" ", registry.DefaultMaxArgs-len(head))
		run, err := e.Bind(args)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, run)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(kept)
	t.Logf("%d kept 2-byte strings hold %.1f MiB", n, float64(grown)/(1<<20))
	if grown > 8<<20 {
		t.Errorf("%d kept 2-byte strings hold %.1f MiB of the heap: each pins its whole arguments text", n, float64(grown)/(1<<20))
	}
}
