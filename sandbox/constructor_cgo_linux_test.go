//go:build linux && cgo

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// constructedArg runs the test binary as a program that prints, before
// it does anything else, what its constructor did: the union of its
// threads' bounding sets and their effective sets, in hex, its pid, its
// uid and gid maps, and why its namespaces were refused.
const constructedArg = "-sandbox-test-constructed"

func init() {
	// Before TestMain, which starts no thread of its own, and before the
	// bounding set is touched by anything but the constructor.
	if len(os.Args) > 1 && os.Args[1] == constructedArg {
		bounding, effective := boundingSets(), effectiveSets()
		uids, _ := os.ReadFile("/proc/self/uid_map")
		gids, _ := os.ReadFile("/proc/self/gid_map")
		fmt.Printf("%x %x %d [%s] [%s] %v\n", bounding, effective, os.Getpid(),
			strings.Join(strings.Fields(string(uids)), " "), strings.Join(strings.Fields(string(gids)), " "), constructorNamespaces())
		os.Exit(0)
	}
}

// effectiveSets is the union of the effective capability sets of this
// process's threads.
func effectiveSets() uint64 {
	var union uint64
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		b, _ := os.ReadFile(filepath.Join("/proc/self/task", t.Name(), "status"))
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
				n, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
				union |= n
			}
		}
	}
	return union
}

// TestConstructor starts the test binary in namespaces of its own, made
// by the pool's start (as a build without cgo does) or by the C
// constructor (namespacesEnv=unshare), with and without the variable by
// which the pool asks to empty the bounding set. In namespaces, the
// program is the init of its PID namespace, maps its root to the user
// who runs the test, and holds every capability there (it has mounts to
// make); with boundingEnv=drop the constructor has emptied the bounding
// set of every thread before the Go runtime ran; without it, the set is
// whole. Asked for neither, the constructor does nothing.
func TestConstructor(t *testing.T) {
	needNamespaces(t)
	last, ok := readSysctl("/proc/sys/kernel/cap_last_cap")
	if !ok {
		t.Fatal("cannot read /proc/sys/kernel/cap_last_cap")
	}
	whole := strconv.FormatUint(1<<(last+1)-1, 16)
	maps := fmt.Sprintf("[0 %d 1] [0 %d 1] <nil>", os.Getuid(), os.Getgid())
	unshare := namespacesEnv + "=unshare"
	for _, c := range []struct {
		inParent bool
		env      []string
		want     string
	}{
		{true, []string{boundingEnv + "=drop"}, "0 " + whole + " 1 " + maps},
		{true, nil, whole + " " + whole + " 1 " + maps},
		{true, []string{boundingEnv + "=yes"}, whole + " " + whole + " 1 " + maps}, // only "drop" asks for it
		{false, []string{unshare, boundingEnv + "=drop"}, "0 " + whole + " 1 " + maps},
		{false, []string{unshare}, whole + " " + whole + " 1 " + maps},
		{false, []string{namespacesEnv + "=yes"}, ""}, // only "unshare" asks for it
	} {
		cmd := exec.Command(os.Args[0], constructedArg)
		cmd.SysProcAttr = sysProcAttr(c.inParent)
		cmd.Env = c.env
		if cmd.Env == nil {
			cmd.Env = []string{}
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", c.env, err)
		}
		got := strings.TrimSpace(string(out))
		if c.want == "" {
			// The host's: not the init of a PID namespace, this process's
			// maps.
			if f := strings.Fields(got); len(f) < 3 || f[2] == "1" || !strings.HasSuffix(got, "<nil>") {
				t.Errorf("%q in the environment, started without namespaces: %s, want the host's pid and no refusal", c.env, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("namespaces made by the pool's start: %v, %q in the environment:\n got %s\nwant %s", c.inParent, c.env, got, c.want)
		}
	}
}
