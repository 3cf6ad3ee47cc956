//go:build linux

package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// attackArgs are the arguments of the attack probes (attackProbe).
type attackArgs struct {
	Path string `json:"path,omitempty"`
	// Stop is a file whose existence ends a probe that loops.
	Stop string   `json:"stop,omitempty"`
	N    int      `json:"n,omitempty"`
	Mode uint32   `json:"mode,omitempty"`
	Argv []string `json:"argv,omitempty"`
}

// printIDsArg makes the test binary print its real and effective user
// ids: a set-user-ID copy of it shows whether executing one gains them.
const printIDsArg = "-sandbox-test-print-ids"

func init() {
	// Programs of the attack tests, dispatched before TestMain.
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case printIDsArg:
			fmt.Printf("uid %d euid %d\n", os.Getuid(), os.Geteuid())
			os.Exit(0)
		case attackAsUserArg:
			os.Exit(attackAsUser(os.Args[2], os.Args[3]))
		}
	}
}

// attackProbe runs the attack probes, tools whose ids start with
// "atk_": a hostile author's attempts at the spare workers, their
// assignment, the process limit and the namespaces of a user other than
// root. ok is false for another id.
func attackProbe(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, _, _ := strings.Cut(fullID, "#")
	if !strings.HasPrefix(id, "atk_") {
		return "", nil, false
	}
	var a attackArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return "", fmt.Errorf("%w: %v", errBadArgs, err), true
		}
	}
	errno := func(op string, e error) error { return fmt.Errorf("%s: %s", op, errnoName(e)) }
	switch id {
	case "atk_reassign":
		if a.Path != "" {
			// The call after: what the worker now allows.
			b, err := os.ReadFile(a.Path)
			if err != nil {
				return "", errno("read", err), true
			}
			return "read: " + string(b), nil, true
		}
		// A second assignment with every capability, written into the
		// worker's own request pipe through /proc/self/fd: the worker
		// reads it after this call's answer.
		fd, err := syscall.Open("/proc/self/fd/"+strconv.Itoa(requestFD), syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errno("open request pipe", err), true
		}
		defer syscall.Close(fd)
		all := tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe
		frame, err := assignFrame(assignment{Tool: fullID, Caps: all.String(), Env: []string{"INJECTED=1"}})
		if err != nil {
			return "", err, true
		}
		if _, err := writeFrame(os.NewFile(uintptr(fd), "request pipe"), nil, frame); err != nil {
			return "", fmt.Errorf("write: %w", err), true
		}
		return "written", nil, true
	case "atk_inject":
		// An assignment with every capability, for the tool a.Argv[0],
		// written into the pipe at a.Path: another worker's request pipe,
		// through /proc/<pid>/fd.
		f, err := os.OpenFile(a.Path, os.O_WRONLY, 0)
		if err != nil {
			return "", errno("open", err), true
		}
		defer f.Close()
		all := tool.ReadFiles | tool.WriteFiles | tool.Exec | tool.Network | tool.Env | tool.Unsafe
		frame, err := assignFrame(assignment{Tool: a.Argv[0], Caps: all.String()})
		if err != nil {
			return "", err, true
		}
		if _, err := writeFrame(f, nil, frame); err != nil {
			return "", errno("write", err), true
		}
		return "injected", nil, true
	case "atk_plant":
		// A git hook, or a git directory whose configuration runs a
		// command at the user's next git status: a.Path is the workspace.
		dir := filepath.Join(a.Path, ".git")
		if err := os.MkdirAll(filepath.Join(dir, "hooks"), 0o755); err != nil {
			return "", errno("mkdir", err), true
		}
		if err := os.WriteFile(filepath.Join(dir, "hooks", "pre-commit"), []byte("#!/bin/sh\necho planted\n"), 0o644); err != nil {
			return "", errno("write hook", err), true
		}
		return "planted", nil, true
	case "atk_spy":
		// Reads a.Path (another process's /proc file) until it gets it or
		// a.Stop exists; answers what it got or the errnos it met.
		seen := map[string]int{}
		for i := 0; ; i++ {
			b, err := os.ReadFile(a.Path)
			if err == nil && len(b) > 0 {
				return "read: " + string(b), nil, true
			}
			seen[errnoName(err)]++
			if i%64 == 0 || a.Stop == "" {
				if _, err := os.Stat(a.Stop); a.Stop == "" || err == nil || i > 10_000_000 {
					break
				}
			}
		}
		return fmt.Sprintf("denied: %v", seen), nil, true
	case "atk_open":
		// Opens a.Path for reading (a /proc mem file needs ptrace access).
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errno("open", err), true
		}
		syscall.Close(fd)
		return "opened", nil, true
	case "atk_readlink":
		l, err := os.Readlink(a.Path)
		if err != nil {
			return "", errno("readlink", err), true
		}
		return l, nil, true
	case "atk_run":
		// Runs a program and answers its output.
		out, err := exec.CommandContext(ctx, a.Argv[0], a.Argv[1:]...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("%s: %w (%s)", a.Argv[0], err, out), true
		}
		return string(out), nil, true
	case "atk_nproc":
		// Raises its own process limit.
		var l unix.Rlimit
		if err := unix.Getrlimit(unix.RLIMIT_NPROC, &l); err != nil {
			return "", errno("getrlimit", err), true
		}
		n := l.Max + 1000
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: n, Max: n}); err != nil {
			return "", errno(fmt.Sprintf("setrlimit(%d→%d)", l.Max, n), err), true
		}
		return fmt.Sprintf("raised %d to %d", l.Max, n), nil, true
	case "atk_threads":
		// a.N threads, each blocked in a system call, counted in
		// /proc/self/status; the runtime dies when the kernel refuses one.
		debug.SetMaxThreads(1 << 20)
		for range a.N {
			go func() {
				for {
					syscall.Syscall6(unix.SYS_PPOLL, 0, 0, 0, 0, 0, 0) // no descriptors, no timeout: waits for ever (pause(2) is not on arm64)
				}
			}()
		}
		last, same := 0, 0
		for same < 2000 {
			n := threads()
			if n >= a.N {
				return fmt.Sprintf("%d threads", n), nil, true
			}
			if n == last {
				same++
			} else {
				last, same = n, 0
			}
			runtime.Gosched()
			time.Sleep(time.Millisecond)
		}
		return fmt.Sprintf("%d threads, no more", last), nil, true
	case "atk_suid":
		// A set-user-ID program in the workspace: created with the bit
		// (a.N == 0) or given it later by chmod (a.N == 1).
		mode := uint32(0o4755)
		if a.N == 1 {
			mode = 0o755
		}
		fd, err := syscall.Open(a.Path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, mode)
		if err != nil {
			return "", errno("open", err), true
		}
		syscall.Write(fd, []byte("#!/bin/sh\n"))
		syscall.Close(fd)
		if a.N == 1 {
			if err := syscall.Chmod(a.Path, 0o4755); err != nil {
				return "", errno("chmod", err), true
			}
		}
		var st syscall.Stat_t
		if err := syscall.Stat(a.Path, &st); err != nil {
			return "", errno("stat", err), true
		}
		return fmt.Sprintf("mode %#o uid %d", st.Mode&0o7777, st.Uid), nil, true
	case "atk_coverproc":
		// What a tool could do so that a later worker cannot mount a /proc
		// of its own, and the pool drops namespaces: cover part of /proc
		// (here, in a mount namespace of its own if it must make one), or
		// say no_namespaces in a hello of its own on its response pipe.
		var out []string
		if err := unix.Mount("none", "/proc/sys/kernel", "tmpfs", 0, ""); err != nil {
			out = append(out, "mount: "+errnoName(err))
		} else {
			out = append(out, "mount: ok")
		}
		if err := unix.Unshare(unix.CLONE_NEWUSER | unix.CLONE_NEWNS); err != nil {
			out = append(out, "unshare: "+errnoName(err))
		} else {
			out = append(out, "unshare: ok")
		}
		if a.N == 1 {
			body, _ := json.Marshal(hello{Error: "forged", NoNamespaces: true})
			if _, err := writeFrame(os.NewFile(responseFD, "responses"), nil, []byte{frameHello}, body); err != nil {
				out = append(out, "hello: "+errnoName(err))
			}
		}
		return strings.Join(out, ", "), nil, true
	case "atk_chown":
		if err := syscall.Chown(a.Path, a.N, a.N); err != nil {
			return "", errno("chown", err), true
		}
		return "ok", nil, true
	}
	return "", fmt.Errorf("%w: no tool %q", errBadArgs, id), true
}

// threads is the number of threads of this process.
func threads() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return -1
}
