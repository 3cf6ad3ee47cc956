//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// asUserArg runs the test binary as a program of a user other than
// root, whom the kernel holds to RLIMIT_NPROC: it starts a pool in the
// directory it is given, with a process limit of 16, and prints what a
// tool with tool.Exec that starts 64 processes answers, as JSON.
const asUserArg = "-sandbox-test-as-user"

// nobody is the user asUserArg runs as.
const nobody = 65534

type asUserReport struct {
	// Offered says whether the kernel offers this user namespaces.
	Offered     bool
	Enforcement Enforcement
	Answer      string
	Err         string
	// Dumpable is PR_GET_DUMPABLE of the pool's process after the call.
	Dumpable int
}

func poolAsUser(dir string) int {
	p, err := NewPool(Config{Arg: workerArg, WorkDir: dir, TempDir: dir, Environ: []string{}, Limits: Limits{Processes: 16}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer p.Close()
	r := asUserReport{Offered: userNamespaces()}
	caps := tool.Exec | tool.Unsafe
	r.Enforcement, err = p.Enforcement(context.Background(), "forks", caps)
	if err == nil {
		r.Answer, err = p.Call(context.Background(), "forks", caps, []byte(`{"n":64}`))
	}
	if err != nil {
		r.Err = err.Error()
	}
	r.Dumpable, _ = unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// TestProcessLimit: for a user other than root, workers get namespaces
// of their own and a tool with tool.Exec starts no more processes than
// Limits.Processes, its worker's threads counted; as root, whom the
// kernel exempts, Enforcement says that the bound does not hold where
// the worker cannot bound its PID namespace's process ids instead.
func TestProcessLimit(t *testing.T) {
	needNamespaces(t)
	if os.Geteuid() != 0 {
		t.Skip("the test starts a program as another user, which takes root")
	}
	exe, work := forUser(t, nobody)
	var r asUserReport
	runAsUser(t, exe, work, nobody, &r, asUserArg, work)
	if !r.Offered {
		t.Skipf("this kernel offers user %d no user namespaces", nobody)
	}
	// A start in namespaces by a user other than root writes the
	// namespace's maps into the child's /proc files: the pool's process
	// is dumpable for the start, and not after it.
	if !r.Enforcement.Namespaces {
		t.Errorf("as user %d, the worker has no namespaces: %+v", nobody, r.Enforcement)
	}
	if r.Dumpable != 0 {
		t.Errorf("the pool's process is dumpable (%d) after starting a worker", r.Dumpable)
	}
	if len(r.Enforcement.Missing) != 0 {
		t.Errorf("as user %d, a tool with exec: Missing %q, want none", nobody, r.Enforcement.Missing)
	}
	var started int
	if _, err := fmt.Sscanf(r.Answer, "%d started, then EAGAIN", &started); err != nil || r.Err != "" {
		t.Fatalf("64 processes under a limit of 16: %q, error %q; want some started, then EAGAIN", r.Answer, r.Err)
	}
	// The worker's own threads count too: fewer than 16 processes start.
	if started < 1 || started >= 16 {
		t.Errorf("%d processes started under a limit of 16, want between 1 and 15", started)
	}

	// As root, RLIMIT_NPROC cannot hold; where the worker cannot bound
	// its PID namespace's process ids either (before Linux 6.14), it
	// says so (TestThreadsBoundedForRoot has the other case).
	if perNamespacePidMax() {
		return
	}
	p := newPool(t, newDirs(t), nil)
	enf, err := p.Enforcement(context.Background(), "forks", tool.Exec|tool.Unsafe)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(enf.Missing, "; "), "exempts root from RLIMIT_NPROC") {
		t.Errorf("as root, a tool with exec: Missing %q, want the unbounded processes named", enf.Missing)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// forUser copies the test binary where user uid reaches it and makes a
// workspace that uid owns, for a pool run as that user; it returns the
// copy and the workspace.
func forUser(t *testing.T, uid int) (exe, work string) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{filepath.Dir(root), root} { // the test's directory and its own
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe = filepath.Join(root, "sandbox.test")
	if err := copyFile(os.Args[0], exe); err != nil {
		t.Fatal(err)
	}
	work = filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(work, uid, uid); err != nil {
		t.Fatal(err)
	}
	return exe, work
}

// runAsUser runs exe with args as user uid in work and decodes the JSON
// report it prints into report.
func runAsUser(t *testing.T, exe, work string, uid int, report any, args ...string) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = work
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the pool as user %d: %v (%s)\nstderr:\n%s", uid, err, out, stderr.Bytes())
	}
	if err := json.Unmarshal(out, report); err != nil {
		t.Fatalf("its report %q: %v", out, err)
	}
}
