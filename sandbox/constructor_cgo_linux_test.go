//go:build linux && cgo

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/tool"
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

// TestConstructorOnlyWhereBuilt: a pool's workers make their
// namespaces in their constructor only where their program may have it:
// this program, a copy of it, a dynamically linked program, as one built
// with cgo is. Elsewhere (a static program may have been built without
// cgo, and would then refuse to run: see TestWorkerNotInitDoesNotMount)
// the pool makes them when it starts the worker, and a worker has them
// all the same.
func TestConstructorOnlyWhereBuilt(t *testing.T) {
	needNamespaces(t)
	d := newDirs(t)
	dir := t.TempDir()
	other := filepath.Join(dir, "worker")
	if err := copyFile(os.Args[0], other); err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Built with CGO_ENABLED=0, as the Go distribution builds its tools.
	static := filepath.Join(runtime.GOROOT(), "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH, "vet")
	if _, err := os.Stat(static); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		exe    string
		want   bool
		worker bool
	}{
		{"", true, true},
		{os.Args[0], true, true},
		{other, true, true},
		{static, false, false},
		{write("script", []byte("#!/bin/sh\n")), false, false},
		{write("empty", nil), false, false},
		{write("header", self[:64]), false, false},  // the ELF header alone
		{write("headers", self[:512]), true, false}, // and the program headers
		{filepath.Join(dir, "missing"), false, false},
	} {
		if !c.worker {
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			if got := constructorIn(c.exe, self); got != c.want {
				t.Errorf("constructorIn(%q) = %v, want %v", c.exe, got, c.want)
			}
			continue
		}
		p := newPool(t, d, func(cfg *Config) { cfg.Executable = c.exe })
		if p.childNamespaces != c.want {
			t.Errorf("Executable %q: workers make their namespaces themselves: %v, want %v", c.exe, p.childNamespaces, c.want)
		}
		enf, err := p.Enforcement(context.Background(), "echo", tool.Unsafe)
		if err != nil || !enf.Namespaces {
			t.Errorf("Executable %q: a worker's enforcement %+v, %v; want namespaces", c.exe, enf, err)
		}
	}
}
