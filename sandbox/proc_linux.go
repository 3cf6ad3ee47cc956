//go:build linux

package sandbox

import (
	"bytes"
	"context"
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

// stoppedAlone reports, once every thread of the process pid is stopped
// (SIGSTOP sent to it) within stopWait, whether it has no child process:
// stopped, it starts none, and as the init of a PID namespace it is the
// parent of every orphan there, so that without a child it is alone in
// its namespace. settled is false while a thread is still running (a
// busy machine schedules it late): the caller asks again later. What
// cannot be read counts as a child (fail closed).
func stoppedAlone(pid int) (alone, settled bool) {
	return stoppedAloneIn(fmt.Sprintf("/proc/%d/task/", pid))
}

// stoppedAloneIn is stoppedAlone for the process whose task directory
// is task, ending in '/'.
func stoppedAloneIn(task string) (alone, settled bool) {
	deadline := time.Now().Add(stopWait)
	// The pool stops each idle worker, after each of its tool's spells
	// of calls: what is read here is read into buf, a line's head, and
	// with three system calls a file (os.ReadFile makes ten, and a
	// buffer).
	var buf [256]byte
	for {
		tids, err := threadIDs(task)
		if err != nil {
			return false, true
		}
		// A child found counts whether or not the process has stopped
		// yet: a program it started may keep continuing it.
		for _, t := range tids {
			b, err := readHead(task+t+"/children", buf[:])
			if err != nil || len(bytes.TrimSpace(b)) > 0 {
				return false, true
			}
		}
		stopped := true
		for _, t := range tids {
			b, err := readHead(task+t+"/stat", buf[:])
			if err != nil {
				return false, true
			}
			// pid (comm) state …: the comm (15 bytes at most) may
			// hold anything but the last ')', and the fields after
			// it are numbers.
			i := bytes.LastIndexByte(b, ')')
			if i < 0 || i+2 >= len(b) {
				return false, true
			}
			if st := b[i+2]; st != 'T' && st != 't' {
				stopped = false
			}
		}
		if stopped {
			// Stopped, it started no child since the look above.
			return true, true
		}
		if time.Now().After(deadline) {
			return false, false
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// threadIDs returns the names in the task directory dir of a process:
// its threads' ids.
func threadIDs(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// readHead reads the start of the file at path into buf, up to its
// length, with one read.
func readHead(path string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for errors.Is(err, unix.EINTR) {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	n, err := unix.Read(fd, buf)
	for errors.Is(err, unix.EINTR) {
		n, err = unix.Read(fd, buf)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return buf[:n], nil
}

// stopWait bounds how long stoppedAlone waits for a worker's threads to
// stop before it says so.
const stopWait = 5 * time.Millisecond

// waitExited waits until p has exited without reaping it, so that the
// rest of its group can still be killed by its id. It reports whether
// it could. It waits on the runtime's poller, through a pidfd (Linux
// 5.3), so that a worker alive holds no thread of the agent's; where
// there is none, on a thread blocked in waitid.
func waitExited(p *os.Process) bool {
	if exited, ok := pollExited(p.Pid); ok {
		return exited
	}
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, p.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil
	}
}

// pollExited waits on the poller until the process pid, a child not
// yet reaped, has exited, and reports whether it has; ok is false when
// it cannot wait so (no pidfd, or one the poller does not take), and
// nothing was waited for.
func pollExited(pid int) (exited, ok bool) {
	// Made non-blocking after it is opened: PIDFD_NONBLOCK came with
	// Linux 5.10, polling a pidfd with 5.3. os.NewFile gives the poller
	// a non-blocking descriptor.
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return false, false
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return false, false
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return false, false
	}
	// A pidfd turns readable when its process has exited; Read calls
	// the function again each time it does, and waitid, without
	// blocking, says whether the process is there to reap.
	err = rc.Read(func(uintptr) bool {
		var info unix.Siginfo
		var err error = unix.EINTR
		for errors.Is(err, unix.EINTR) {
			err = unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil)
		}
		if err != nil {
			return true // not a child to wait for: exited stays false
		}
		exited = info.Signo != 0 // zero: it has not exited yet
		return exited
	})
	if err != nil {
		// Not pollable: the fd was registered with no poller, and
		// nothing was waited for.
		return false, false
	}
	return exited, true
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

// removeTree removes dir and everything in it. It empties dir without
// descending into it (flatten), then removes it; where that fails, it
// removes it as os.RemoveAll does, and where that fails too, it gives
// each directory below dir back its owner's permissions and tries again.
// os.RemoveAll holds a descriptor for each level of the tree, and a tool
// that writes files made a chain of directories deeper than the agent's
// RLIMIT_NOFILE: the removal failed with EMFILE, having taken every
// descriptor the agent may open meanwhile, and the chain stayed after
// its worker. A tool that writes files may take every
// permission from a directory it made in its temp directory (chmod 0),
// which a pool run by a user other than root then could neither list
// nor empty: the tool's files stayed after its worker. Each directory
// is reached beneath dir without following a symbolic link (openat2),
// so that a process a tool started that outlives its worker (where
// there are no namespaces) and puts a link in a directory's place
// changes no directory elsewhere.
func removeTree(dir string) error { return removeTreeCtx(context.Background(), dir) }

// removeTreeCtx is removeTree, which stops once ctx is done and leaves
// the rest.
func removeTreeCtx(ctx context.Context, dir string) error {
	if err := flatten(ctx, dir); err == nil {
		if err := os.Remove(dir); err == nil || errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
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

// flatten empties dir with two descriptors open at most, however deep
// the tree in it: each entry of dir is removed, and a directory that is
// not empty has its entries moved up into dir (under names of
// flatten's own) before it is removed, until dir is empty. A directory
// that cannot be opened is given back its owner's permissions first
// (see removeTree). Nothing is followed: a symbolic link is removed as
// the link it is, and a directory put in an entry's place meanwhile is
// only emptied the same way.
func flatten(ctx context.Context, dir string) error {
	root, err := openDirOwned(unix.AT_FDCWD, dir)
	if err != nil {
		return err
	}
	defer unix.Close(root)
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		names, err := dirNames(root)
		if err != nil {
			return err
		}
		if len(names) == 0 {
			return nil
		}
		progress := false
		for _, name := range names {
			if err := ctx.Err(); err != nil {
				return err
			}
			if unix.Unlinkat(root, name, 0) == nil || unix.Unlinkat(root, name, unix.AT_REMOVEDIR) == nil {
				progress = true
				continue
			}
			sub, err := openDirOwned(root, name)
			if err != nil {
				continue
			}
			children, _ := dirNames(sub)
			for _, c := range children {
				if ctx.Err() != nil {
					break
				}
				for {
					n++
					err := unix.Renameat2(sub, c, root, fmt.Sprintf(".toolreg-removing-%d", n), unix.RENAME_NOREPLACE)
					if err == nil {
						progress = true
					}
					if err != unix.EEXIST {
						break
					}
				}
			}
			unix.Close(sub)
			if unix.Unlinkat(root, name, unix.AT_REMOVEDIR) == nil {
				progress = true
			}
		}
		if !progress {
			return fmt.Errorf("emptying %s: %d entries cannot be removed", dir, len(names))
		}
	}
}

// openDirOwned opens the directory name of dirfd for reading, without
// following a symbolic link, and gives it its owner's permissions (a
// tool may have taken them, chmod 0 or 0500, and its entries could then
// be neither read nor moved); where its permissions refuse the open, it
// gives them back first.
func openDirOwned(dirfd int, name string) (int, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(dirfd, name, flags, 0)
	if err == nil {
		_ = unix.Fchmod(fd, 0o700)
	}
	if err != unix.EACCES {
		return fd, err
	}
	p, perr := unix.Openat(dirfd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if perr != nil {
		return -1, err
	}
	// chmod through the descriptor's /proc link: fchmod refuses an
	// O_PATH descriptor.
	_ = unix.Chmod(fmt.Sprintf("/proc/self/fd/%d", p), 0o700)
	unix.Close(p)
	return unix.Openat(dirfd, name, flags, 0)
}

// dirNames lists the entries of the directory open as fd, from its
// start.
func dirNames(fd int) ([]string, error) {
	if _, err := unix.Seek(fd, 0, 0); err != nil {
		return nil, err
	}
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}
