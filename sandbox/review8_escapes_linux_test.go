//go:build linux

package sandbox

import (
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// The escapes of this file were found by an eighth hostile-author
// review; each fails on the code it was written against. The probes are
// the r8_ tools of review8_probe_linux_test.go.

// TestNoLandlockRulesetsWithoutExec: a tool without exec has no memory
// the limit (RLIMIT_DATA) does not count, but each rule of a Landlock
// ruleset is kernel memory, and a ruleset takes a rule for every TCP
// port: a tool with no capability held 4,194,304 rules in 64 rulesets,
// 293 MiB of unreclaimable kernel memory, under a 256 MiB limit, and
// kept them across calls; its descriptors allowed a thousand rulesets.
func TestNoLandlockRulesetsWithoutExec(t *testing.T) {
	if !Check(tool.Unsafe).Seccomp {
		t.Skip("no seccomp here")
	}
	p := newPool(t, newDirs(t), nil)
	for _, caps := range withoutExec {
		got, err := call(t, p, "r8_landlock", caps, r8Args{N: 1})
		wantErrno(t, "a Landlock ruleset without exec, "+caps.String(), err, "ENOSYS")
		if err == nil {
			t.Errorf("%s: %s, kernel memory no limit counts", caps, got)
		}
	}
	// The positive control: a tool with exec, whose programs may
	// restrict themselves (and share memory the limit does not count).
	needLandlock(t, 4)
	if got, err := call(t, p, "r8_landlock", tool.Exec|tool.Unsafe, r8Args{N: 1}); err != nil || got != "65536 rules in 1 rulesets" {
		t.Errorf("a Landlock ruleset with exec: %q, %v; want 65536 rules in 1 rulesets", got, err)
	}
}
