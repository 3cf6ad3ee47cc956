//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// sysProcAttr starts a worker in a session and process group of its
// own (no controlling terminal, so a kill reaches every process it
// started), killed when the thread that started it dies. With
// namespaces, it also gets user, PID, mount and IPC namespaces of its
// own: it is the init of its PID namespace, so every process it starts
// dies with it, and its capabilities, whatever they are in its user
// namespace, count for nothing outside it. The user namespace maps its
// root to the caller's own user and group, so files keep their owners
// and the worker, whoever runs the agent, holds the capabilities it needs
// in its namespace to set up its mounts, which it then drops.
func sysProcAttr(namespaces bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if namespaces {
		a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
	return a
}

// hostRoot reports whether the process runs as root of the machine: as
// root outside a user namespace, or as the root of one that maps it to
// the machine's root.
func hostRoot() bool {
	if os.Geteuid() != 0 {
		return false
	}
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return true
	}
	// Lines of "inside outside count"; ours maps 0 to one user.
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "0" {
			return f[1] == "0"
		}
	}
	return false
}

// namespacesRefused reports whether err, from starting a worker with
// namespaces, says that this kernel or its configuration refuses them
// (see refusedUnder).
func namespacesRefused(err error) bool {
	limit, ok := readSysctl("/proc/sys/user/max_user_namespaces")
	if !ok {
		limit = -1 // unknown: not configured off
	}
	return refusedUnder(err, limit)
}

// refusedUnder is namespacesRefused where the limit on user namespaces
// is limit. The limit reached (ENOSPC, EUSERS) is a refusal only where
// it is 0, user namespaces configured off: elsewhere the start fails,
// and the next one has its namespaces once some are freed, rather than
// every worker after it going without.
func refusedUnder(err error, limit int) bool {
	if errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EUSERS) {
		return limit == 0
	}
	return errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) ||
		errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOSYS)
}

// killGroup kills the worker's process group. Called only while the
// worker has not been reaped, so its pid cannot have been reused.
func killGroup(p *os.Process) {
	_ = unix.Kill(-p.Pid, unix.SIGKILL)
}

// stopGroup stops the worker's process group (SIGSTOP, which no process
// catches or ignores), and continueGroup continues it. Called only while
// the worker has not been reaped.
func stopGroup(p *os.Process)     { _ = unix.Kill(-p.Pid, unix.SIGSTOP) }
func continueGroup(p *os.Process) { _ = unix.Kill(-p.Pid, unix.SIGCONT) }

// waitExited waits until p has exited without reaping it, so that the
// rest of its group can still be killed by its id. It reports whether
// it could.
func waitExited(p *os.Process) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, p.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil
	}
}

// leftoverWait bounds how long a worker waits for the processes a call
// started to die once killed.
const leftoverWait = 2 * time.Second

// endLeftovers kills every other process of the worker's PID namespace
// and reaps them, when the worker is that namespace's init: nothing a
// call started outlives it. Elsewhere it does nothing; the worker's
// seccomp filter keeps tools without tool.Exec from starting processes.
func endLeftovers() {
	if os.Getpid() != 1 {
		return
	}
	// Every other process of the namespace descends from a child of
	// its init: without children there is nothing to end, and kill(-1)
	// would walk every process of the machine for nothing.
	var ws unix.WaitStatus
	if _, err := unix.Wait4(-1, &ws, unix.WALL|unix.WNOHANG, nil); errors.Is(err, unix.ECHILD) {
		return
	}
	// In a PID namespace, kill(-1) reaches all of it but its init. A
	// goroutine the tool left behind may start more: kill again until
	// none is left to reap. A process that does not die within
	// leftoverWait ends the worker, and with its init the kernel ends
	// the namespace: no call waits for it, and it serves no other.
	deadline := time.Now().Add(leftoverWait)
	for {
		_ = unix.Kill(-1, unix.SIGKILL)
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WALL|unix.WNOHANG, nil)
		switch {
		case errors.Is(err, unix.EINTR):
		case err != nil:
			return // ECHILD: none left
		case pid == 0:
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "sandbox worker: the processes the call started did not end within %v; the worker ends with them\n", leftoverWait)
				os.Exit(3)
			}
			time.Sleep(100 * time.Microsecond) // killed, not yet exited
		}
	}
}

// Undumpable makes the calling process not dumpable: no process of the
// same user without CAP_SYS_PTRACE (a tool's worker, or a program a
// tool started) can read its memory, environment or descriptors through
// /proc or attach to it. NewPool calls it, since the program that
// starts workers holds secrets they must not have; a program that runs
// tools in process may call it too. A debugger can then attach only
// with CAP_SYS_PTRACE.
func Undumpable() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_DUMPABLE, 0): %w", err)
	}
	return nil
}

// dumpableMu serializes the starts of workers in user namespaces by a
// user other than root, which make the process dumpable for a moment
// (see startInNamespaces). It is process-wide, as dumpability is.
var dumpableMu sync.Mutex

// startInNamespaces runs start, which starts a worker in namespaces of
// its own. For a user other than root, the go command writes the new
// user namespace's uid and gid maps from this process into the child's
// /proc files, which a non-dumpable child (as the child of a
// non-dumpable process is until it executes) gives to root: the process
// is made dumpable for the start and not dumpable again after it, one
// start at a time. Only where Landlock is in force, which keeps every
// worker from reading this process's memory or environment whatever its
// dumpability; elsewhere the start fails and the pool goes on without
// namespaces.
func startInNamespaces(start func() error) error {
	if hostRoot() || landlockABI() < 1 {
		return start()
	}
	dumpableMu.Lock()
	defer dumpableMu.Unlock()
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0); err != nil {
		return start()
	}
	defer unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	return start()
}

// removeTree removes dir and everything in it, as os.RemoveAll does;
// where that fails, it gives each directory below dir back its owner's
// permissions and tries again. A tool that writes files may take every
// permission from a directory it made in its temp directory (chmod 0),
// which a pool run by a user other than root then could neither list
// nor empty: the tool's files stayed after its worker. Each directory
// is reached beneath dir without following a symbolic link (openat2),
// so that a process a tool started that outlives its worker (where
// there are no namespaces) and puts a link in a directory's place
// changes no directory elsewhere.
func removeTree(dir string) error {
	err := os.RemoveAll(dir)
	if err == nil {
		return nil
	}
	root, oerr := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if oerr != nil {
		return err
	}
	defer unix.Close(root)
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, werr error) error {
		if werr != nil || d == nil || !d.IsDir() {
			return nil // what cannot be read is left to RemoveAll's error
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			return nil
		}
		fd, oerr := unix.Openat2(root, rel, how)
		if oerr != nil {
			return nil
		}
		// chmod through the descriptor's /proc link: fchmod refuses an
		// O_PATH descriptor.
		_ = unix.Chmod(fmt.Sprintf("/proc/self/fd/%d", fd), 0o700)
		unix.Close(fd)
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("removing %s: %w", dir, err)
	}
	return nil
}
