//go:build linux

package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// escape runs the probes of a hostile tool author: each tries, through
// raw system calls, to get past its worker's restrictions, and answers
// what it got or fails with the errno that stopped it. ok is false for
// an id that is not one of them.
func escape(id string, a probeArgs) (text string, err error, ok bool) {
	errno := func(op string, e error) error { return fmt.Errorf("%s: %s", op, errnoName(e)) }
	if strings.HasPrefix(id, "nap") {
		id = "nap" // nap, nap1, nap2…: tools of their own that do the same
	}
	switch id {
	case "memfd_exec":
		// A program without tool.Exec: an ELF written into a memfd and
		// run with execveat. On success the worker becomes the program,
		// which exits 42.
		name := []byte("x\x00")
		fd, _, e := syscall.RawSyscall(unix.SYS_MEMFD_CREATE, uintptr(unsafe.Pointer(&name[0])), 0, 0)
		if e != 0 {
			return "", errno("memfd_create", e), true
		}
		exe, err := os.ReadFile("/proc/self/exe")
		if err != nil {
			self, _ := os.Executable()
			if exe, err = os.ReadFile(self); err != nil {
				return "", fmt.Errorf("reading the executable: %w", err), true
			}
		}
		if _, err := syscall.Write(int(fd), exe); err != nil {
			return "", errno("write", err), true
		}
		empty := []byte{0}
		argv0, _ := syscall.BytePtrFromString("x")
		arg1, _ := syscall.BytePtrFromString(exit42Arg)
		argv := []*byte{argv0, arg1, nil}
		envv := []*byte{nil}
		_, _, e = syscall.RawSyscall6(unix.SYS_EXECVEAT, fd, uintptr(unsafe.Pointer(&empty[0])),
			uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])), unix.AT_EMPTY_PATH, 0)
		return "", errno("execveat", e), true
	case "fork", "clone_newuser":
		// A process without tool.Exec: a raw clone without CLONE_THREAD,
		// whose child exits at once; clone_newuser starts it in a user
		// namespace of its own, as unshare(1) -U or a browser's sandbox
		// does.
		flags := uintptr(syscall.SIGCHLD)
		if id == "clone_newuser" {
			flags |= unix.CLONE_NEWUSER
		}
		pid, _, e := syscall.RawSyscall6(unix.SYS_CLONE, flags, 0, 0, 0, 0, 0)
		if e != 0 {
			return "", errno("clone", e), true
		}
		if pid == 0 {
			syscall.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0)
		}
		var ws syscall.WaitStatus
		syscall.Wait4(int(pid), &ws, 0, nil)
		return "forked", nil, true
	case "forks":
		// Processes that stay until the call's end kills them: as many
		// as a.N, or until the kernel refuses one.
		for i := range a.N {
			pid, _, e := syscall.RawSyscall6(unix.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
			if e != 0 {
				return fmt.Sprintf("%d started, then %s", i, errnoName(e)), nil, true
			}
			if pid == 0 {
				for {
					syscall.RawSyscall6(unix.SYS_PPOLL, 0, 0, 0, 0, 0, 0) // waits for ever, as pause(2), which arm64 lacks
				}
			}
		}
		return fmt.Sprintf("%d started", a.N), nil, true
	case "clone3":
		var args [88]byte // struct clone_args, zero: a plain fork
		*(*uint64)(unsafe.Pointer(&args[32])) = uint64(syscall.SIGCHLD)
		pid, _, e := syscall.RawSyscall(unix.SYS_CLONE3, uintptr(unsafe.Pointer(&args[0])), unsafe.Sizeof(args), 0)
		if e != 0 {
			return "", errno("clone3", e), true
		}
		if pid == 0 {
			syscall.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0)
		}
		var ws syscall.WaitStatus
		syscall.Wait4(int(pid), &ws, 0, nil)
		return "forked", nil, true
	case "daemon", "daemon_block", "daemon_stderr":
		// A program that leaves the worker's session and holds a lock on
		// a.Path for as long as it lives. daemon_stderr's keeps the
		// worker's stderr too, and its answer is the program's line and
		// pid.
		exe, err := os.Executable()
		if err != nil {
			return "", err, true
		}
		var p [2]int
		if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
			return "", errno("pipe2", err), true
		}
		stderr := uintptr(p[1])
		if id == "daemon_stderr" {
			stderr = 2
		}
		pid, err := syscall.ForkExec(exe, []string{exe, daemonArg, a.Path}, &syscall.ProcAttr{
			Files: []uintptr{0, uintptr(p[1]), stderr},
			Sys:   &syscall.SysProcAttr{Setsid: true},
		})
		syscall.Close(p[1])
		if err != nil {
			syscall.Close(p[0])
			return "", errno("fork/exec", err), true
		}
		line, _ := bufio.NewReader(os.NewFile(uintptr(p[0]), "daemon")).ReadString('\n')
		switch id {
		case "daemon_block":
			select {}
		case "daemon_stderr":
			return fmt.Sprintf("%s %d", strings.TrimSpace(line), pid), nil, true
		}
		return strings.TrimSpace(line), nil, true
	case "daemon_locked":
		// As daemon, started from a thread that ends with the goroutine
		// that locked it: no thread of the worker is left in the
		// thread's Landlock domain, in which the daemon is.
		type answer struct {
			text string
			err  error
		}
		done := make(chan answer, 1)
		go func() {
			runtime.LockOSThread() // never unlocked
			text, err, _ := escape("daemon", a)
			done <- answer{text, err}
		}()
		got := <-done
		return got.text, got.err, true
	case "child_pipes":
		// Whether a program the tool starts holds the worker's pipes.
		exe, err := os.Executable()
		if err != nil {
			return "", err, true
		}
		out, err := exec.Command(exe, pipesArg).Output()
		return strings.TrimSpace(string(out)), err, true
	case "signal":
		// Signal 0 to process a.N: whether it can be signalled at all.
		if err := syscall.Kill(a.N, 0); err != nil {
			return "", errno("kill", err), true
		}
		return "ok", nil, true
	case "fd":
		// A descriptor the agent inherited (a shell's 9<).
		buf := make([]byte, 64)
		n, err := syscall.Read(a.N, buf)
		if err != nil {
			return "", errno("read", err), true
		}
		return string(buf[:n]), nil, true
	case "fd_at":
		// As fd, from the file's start whoever read it before (pread).
		buf := make([]byte, 64)
		n, err := syscall.Pread(a.N, buf, 0)
		if err != nil {
			return "", errno("pread", err), true
		}
		return string(buf[:n]), nil, true
	case "forge":
		// Answers for calls to come, written ahead into the response
		// pipe, then this call's own answer.
		frame := func(text string) []byte {
			b := []byte{0, 0, 0, byte(2 + len(text)), frameResponse, 0}
			return append(b, text...)
		}
		for range 3 {
			if _, err := syscall.Write(responseFD, frame("forged")); err != nil {
				return "", errno("write", err), true
			}
		}
		return "forged", nil, true
	case "caps":
		// Every capability set of this thread, and the bounding and
		// ambient sets.
		hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
		var data [2]unix.CapUserData
		if err := unix.Capget(&hdr, &data[0]); err != nil {
			return "", errno("capget", err), true
		}
		var held []string
		for i, d := range data {
			if d.Effective|d.Permitted|d.Inheritable != 0 {
				held = append(held, fmt.Sprintf("set %d: effective %#x permitted %#x inheritable %#x", i, d.Effective, d.Permitted, d.Inheritable))
			}
		}
		for c := 0; c < 64; c++ {
			if in, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); err == nil && in == 1 {
				held = append(held, fmt.Sprintf("bounding %d", c))
			}
			if in, err := unix.PrctlRetInt(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_IS_SET, uintptr(c), 0, 0); err == nil && in == 1 {
				held = append(held, fmt.Sprintf("ambient %d", c))
			}
		}
		return strings.Join(held, "; "), nil, true
	case "threadcaps":
		// Every capability set of every thread of the worker, as the
		// kernel reports them in /proc (a thread's sets are its own).
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return "", errno("reading /proc/self/task", err), true
		}
		var held []string
		for _, t := range tasks {
			b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/status")
			if err != nil {
				continue // the thread ended meanwhile
			}
			for _, line := range strings.Split(string(b), "\n") {
				k, v, ok := strings.Cut(line, ":")
				if ok && strings.HasPrefix(k, "Cap") && strings.Trim(strings.TrimSpace(v), "0") != "" {
					held = append(held, fmt.Sprintf("thread %s %s %s", t.Name(), k, strings.TrimSpace(v)))
				}
			}
		}
		if len(tasks) < 2 {
			held = append(held, fmt.Sprintf("only %d thread", len(tasks)))
		}
		return strings.Join(held, "; "), nil, true
	case "mknod":
		if err := syscall.Mknod(a.Path, a.Mode, int(unix.Mkdev(254, 0))); err != nil {
			return "", errno("mknod", err), true
		}
		return "ok", nil, true
	case "chmod":
		if err := syscall.Chmod(a.Path, a.Mode); err != nil {
			return "", errno("chmod", err), true
		}
		return "ok", nil, true
	case "tmpcreate":
		return escape("create", probeArgs{Path: os.Getenv("TMPDIR") + "/" + a.Path, N: a.N})
	case "create":
		fd, err := syscall.Open(a.Path, syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o644)
		if err != nil {
			return "", errno("open", err), true
		}
		defer syscall.Close(fd)
		for buf := make([]byte, a.N); len(buf) > 0; {
			n, err := syscall.Write(fd, buf)
			if err != nil {
				return "", errno("write", err), true
			}
			buf = buf[n:]
		}
		return "ok", nil, true
	case "rename":
		if err := syscall.Rename(a.Path, a.Path+".moved"); err != nil {
			return "", errno("rename", err), true
		}
		return "ok", nil, true
	case "alloc":
		b := make([]byte, a.N<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		return fmt.Sprint(len(b) >> 20), nil, true
	case "nofile":
		// Opens /dev/null until it may not, and counts what was open
		// before: the two add up to the limit.
		var rl syscall.Rlimit
		syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl)
		before := 0
		for fd := 0; fd < int(rl.Cur); fd++ {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
				before++
			}
		}
		var fds []int
		defer func() {
			for _, fd := range fds {
				syscall.Close(fd)
			}
		}()
		for {
			fd, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			if err != nil {
				return fmt.Sprintf("%d open, %d more, then %s", before, len(fds), errnoName(err)), nil, true
			}
			fds = append(fds, fd)
		}
	case "nap":
		time.Sleep(time.Duration(a.N) * time.Millisecond)
		return "ok", nil, true
	case "ptrace":
		if _, _, e := syscall.RawSyscall(unix.SYS_PTRACE, unix.PTRACE_TRACEME, 0, 0); e != 0 {
			return "", errno("ptrace", e), true
		}
		return "ok", nil, true
	case "unshare":
		if _, _, e := syscall.RawSyscall(unix.SYS_UNSHARE, unix.CLONE_NEWUSER, 0, 0); e != 0 {
			return "", errno("unshare", e), true
		}
		return "ok", nil, true
	}
	return "", nil, false
}
