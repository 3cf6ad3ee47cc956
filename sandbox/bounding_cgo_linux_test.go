//go:build linux && cgo

package sandbox

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// boundingArg runs the test binary as a program that prints the union of
// its threads' bounding sets, in hex, before it does anything else.
const boundingArg = "-sandbox-test-bounding"

func init() {
	// Before TestMain, which starts no thread of its own, and before the
	// bounding set is touched by anything but the constructor.
	if len(os.Args) > 1 && os.Args[1] == boundingArg {
		os.Stdout.WriteString(strconv.FormatUint(boundingSets(), 16) + "\n")
		os.Exit(0)
	}
}

// TestBoundingSetConstructor starts the test binary in a user namespace
// of its own, where it holds every capability, with and without the
// variable the pool sets: with it, the C constructor has emptied the
// bounding set of every thread before the Go runtime ran; without it,
// the set is whole.
func TestBoundingSetConstructor(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	last, ok := readSysctl("/proc/sys/kernel/cap_last_cap")
	if !ok {
		t.Fatal("cannot read /proc/sys/kernel/cap_last_cap")
	}
	whole := strconv.FormatUint(1<<(last+1)-1, 16)
	for _, c := range []struct {
		env, want string
	}{
		{boundingEnv + "=drop", "0"},
		{"", whole},
		{boundingEnv + "=yes", whole}, // only "drop" asks for it
	} {
		cmd := exec.Command(os.Args[0], boundingArg)
		cmd.SysProcAttr = sysProcAttr(true)
		if c.env != "" {
			cmd.Env = []string{c.env}
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", c.env, err)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("bounding sets with %q in the environment: %s, want %s", c.env, got, c.want)
		}
	}
}
