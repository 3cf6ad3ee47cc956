//go:build linux

package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/registry"
)

// The test binary is its own worker: run with workerArg first, it serves
// the probe tools below; run with fakeArg, it plays a worker on a kernel
// without restrictions.
const (
	workerArg = "-sandbox-test-worker"
	fakeArg   = "-sandbox-test-fake-unenforced"

	// The programs the escape probes start: a daemon that holds a lock
	// on the file it is given, a program that exits 42, one that sleeps.
	daemonArg = "-sandbox-test-daemon"
	exit42Arg = "-sandbox-test-exit42"
	sleepArg  = "-sandbox-test-sleep"

	// A process without capabilities that holds a secret in its
	// environment, made undumpable or left as it is, until its stdin
	// closes; and one without capabilities that reads a file.
	holdArg = "-sandbox-test-hold"
	readArg = "-sandbox-test-read"

	// A process that echoes what it reads on fd 3 to fd 4, for the floor
	// of a round trip through pipes to another process.
	pipeEchoArg = "-sandbox-test-pipe-echo"

	// A program that reports whether descriptors 3 and 4 are open in it.
	pipesArg = "-sandbox-test-pipes"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case workerArg:
			if err := Serve(context.Background(), os.Args[2:], Worker{Handler: probe, Classify: classify}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		case fakeArg:
			os.Exit(fakeUnenforced())
		case daemonArg:
			os.Exit(daemon(os.Args[2]))
		case exit42Arg:
			os.Exit(42)
		case pipesArg:
			for _, fd := range []int{requestFD, responseFD} {
				_, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
				fmt.Printf("%d:%v ", fd, err == nil)
			}
			os.Exit(0)
		case asUserArg:
			os.Exit(poolAsUser(os.Args[2]))
		case pipeEchoArg:
			pipeEcho(os.Args[2])
			os.Exit(0)
		case holdArg:
			// As an agent that runs as a user other than root: without
			// capabilities, the kernel lets processes of the same user
			// read each other's /proc unless one is undumpable.
			if err := dropCapabilities(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if os.Args[2] == "undumpable" {
				if err := Undumpable(); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
			}
			fmt.Println("holding")
			io.Copy(io.Discard, os.Stdin)
			os.Exit(0)
		case readArg:
			if err := dropCapabilities(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			b, err := os.ReadFile(os.Args[2])
			if err != nil {
				fmt.Println(errnoName(err))
				os.Exit(0)
			}
			os.Stdout.Write(b)
			os.Exit(0)
		case sleepArg:
			time.Sleep(time.Hour)
			os.Exit(0)
		case refuseNamespacesArg:
			os.Exit(poolWithoutNamespaces(os.Args[2]))
		case coveredProcArg:
			os.Exit(poolWithCoveredProc(os.Args[2]))
		case poolToKillArg:
			os.Exit(poolToKill(os.Args[2]))
		case poolToLeaveArg:
			os.Exit(poolToLeave(os.Args[2]))
		case stackUnlimitedArg:
			os.Exit(stackUnlimited(os.Args[2]))
		case inheritedLowArg:
			os.Exit(inheritedLow(os.Args[2]))
		case orphanArg:
			os.Exit(poolToOrphan(os.Args[2]))
		case epollAsUserArg:
			os.Exit(epollAsUser(os.Args[2], os.Args[3]))
		case tempAsUserArg:
			os.Exit(tempAsUser(os.Args[2]))
		}
	}
	os.Exit(m.Run())
}

// fakeUnenforced says hello as a worker that enforces nothing, then,
// as a worker does, waits until the pool closes its request pipe (a
// worker that exits at once may be reaped, and its pipes closed, before
// the pool has read its hello).
func fakeUnenforced() int {
	out := os.NewFile(responseFD, "responses")
	body, _ := json.Marshal(hello{Enforcement: Enforcement{OS: runtime.GOOS, Missing: []string{"no Landlock (fake)"}}})
	if _, err := writeFrame(out, nil, []byte{frameHello}, body); err != nil {
		return 1
	}
	_, _ = io.Copy(io.Discard, os.NewFile(requestFD, "requests"))
	return 0
}

var errBadArgs = errors.New("bad probe arguments")

func classify(err error) registry.Kind {
	if errors.Is(err, errBadArgs) {
		return registry.KindArguments
	}
	return registry.KindTool
}

// daemon locks path, says so on stdout, and sleeps: the lock is
// released when it dies.
func daemon(path string) int {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "daemon:", err)
		return 1
	}
	if err := syscall.Flock(fd, syscall.LOCK_EX); err != nil {
		fmt.Fprintln(os.Stderr, "daemon:", err)
		return 1
	}
	fmt.Println("ready")
	time.Sleep(time.Hour)
	return 0
}

// probeArgs are the arguments of the probe tools.
type probeArgs struct {
	Path string `json:"path,omitempty"`
	Port int    `json:"port,omitempty"`
	// Mode is a file mode for mknod and chmod; N a count, a size or a
	// descriptor, as the probe says.
	Mode uint32 `json:"mode,omitempty"`
	N    int    `json:"n,omitempty"`
}

// probe runs the test tools. Each attempts one action through raw system
// calls and answers "ok", or fails with the errno's name. A suffix from '#' on names a tool of its own that does the same
// (read#1 reads).
func probe(ctx context.Context, id string, raw []byte) (string, error) {
	if text, err, ok := probeSet13(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := attackProbe(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := hostileProbe(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := probeSet6(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := probeSet7(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := probeSet8(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := probeSet9(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := probeSet10(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := probeSet11(ctx, id, raw); ok {
		return text, err
	}
	if text, err, ok := probeSet12(ctx, id, raw); ok {
		return text, err
	}
	id, _, _ = strings.Cut(id, "#")
	var a probeArgs
	if id != "spin" && id != "echo" && len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return "", fmt.Errorf("%w: %v", errBadArgs, err)
		}
	}
	errno := func(op string, err error) error { return fmt.Errorf("%s: %s", op, errnoName(err)) }
	switch id {
	case "echo":
		return string(raw), nil
	case "unlink":
		if err := syscall.Unlink(a.Path); err != nil {
			return "", errno("unlink", err)
		}
		return "ok", nil
	case "read":
		fd, err := syscall.Open(a.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return "", errno("open", err)
		}
		defer syscall.Close(fd)
		buf := make([]byte, 4096)
		n, err := syscall.Read(fd, buf)
		if err != nil {
			return "", errno("read", err)
		}
		return string(buf[:n]), nil
	case "execve":
		// On success the worker becomes the program and the call fails
		// as a crash.
		err := syscall.Exec(a.Path, []string{a.Path}, nil)
		return "", errno("execve", err)
	case "forkexec":
		pid, err := syscall.ForkExec(a.Path, []string{a.Path}, &syscall.ProcAttr{})
		if err != nil {
			return "", errno("fork/exec", err)
		}
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			return "", errno("wait4", err)
		}
		return fmt.Sprintf("exit %d", ws.ExitStatus()), nil
	case "tcp", "udp", "unix":
		return dial(id, a)
	default:
		if text, err, ok := escape(id, a); ok {
			return text, err
		}
		if text, ok := reportProgress(ctx, id, a); ok {
			return text, nil
		}
	case "env":
		env := os.Environ()
		return strings.Join(env, "\n"), nil
	case "deadline":
		// The deadline the tool's context has, in nanoseconds since
		// the epoch.
		d, ok := ctx.Deadline()
		if !ok {
			return "none", nil
		}
		return strconv.FormatInt(d.UnixNano(), 10), nil
	case "spin":
		for {
		}
	case "block":
		fmt.Println("blocking")
		select {}
	case "gate":
		// Holds its worker until a.Path exists.
		for {
			var st syscall.Stat_t
			if err := syscall.Stat(a.Path, &st); err == nil {
				return "ok", nil
			}
			time.Sleep(time.Millisecond)
		}
	case "selfkill":
		// As the init of its PID namespace the worker cannot be killed
		// from inside it; SIGABRT crashes it through the runtime's
		// handler.
		syscall.Kill(os.Getpid(), syscall.SIGABRT)
		select {}
	case "goroutine_panic":
		go panic("boom in a goroutine")
		select {}
	case "panic":
		panic("boom")
	case "exit":
		os.Exit(3)
	case "goexit":
		runtime.Goexit()
	case "fail":
		return "", errors.New("the tool failed")
	case "badargs":
		return "", fmt.Errorf("%w: field x", errBadArgs)
	}
	return "", fmt.Errorf("%w: no tool %q", errBadArgs, id)
}

// dial opens a socket of the kind id and connects it to the loopback
// port, or the unix socket at a.Path, with raw system calls; for UDP it
// sends one datagram.
func dial(id string, a probeArgs) (string, error) {
	var fd int
	var err error
	switch id {
	case "tcp":
		fd, err = syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	case "udp":
		fd, err = syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	case "unix":
		fd, err = syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	}
	if err != nil {
		return "", fmt.Errorf("socket: %s", errnoName(err))
	}
	defer syscall.Close(fd)
	var sa syscall.Sockaddr = &syscall.SockaddrInet4{Port: a.Port, Addr: [4]byte{127, 0, 0, 1}}
	if id == "unix" {
		sa = &syscall.SockaddrUnix{Name: a.Path}
	}
	if id == "udp" {
		if err := syscall.Sendto(fd, []byte("probe"), 0, sa); err != nil {
			return "", fmt.Errorf("sendto: %s", errnoName(err))
		}
		return "ok", nil
	}
	if err := syscall.Connect(fd, sa); err != nil {
		return "", fmt.Errorf("connect: %s", errnoName(err))
	}
	return "ok", nil
}

// errnoNames are the errnos the probes may meet, by name.
var errnoNames = map[syscall.Errno]string{
	syscall.EACCES: "EACCES", syscall.EPERM: "EPERM", syscall.EROFS: "EROFS", syscall.EBUSY: "EBUSY",
	syscall.EBADF: "EBADF", syscall.EFBIG: "EFBIG", syscall.EAGAIN: "EAGAIN", syscall.EMFILE: "EMFILE",
	syscall.ENOENT: "ENOENT", syscall.ENOSYS: "ENOSYS", syscall.EXDEV: "EXDEV", syscall.EOPNOTSUPP: "EOPNOTSUPP",
}

// probeOf returns the id of a probe of the family whose ids begin with
// prefix (the part of fullID before '#', which keeps workers apart) and
// its arguments; ok is false for a probe of another family.
func probeOf[A any](prefix, fullID string, raw []byte) (id string, a A, err error, ok bool) {
	id, _, _ = strings.Cut(fullID, "#")
	if !strings.HasPrefix(id, prefix) {
		return "", a, nil, false
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return id, a, fmt.Errorf("%w: %v", errBadArgs, err), true
		}
	}
	return id, a, nil, true
}

// errnoOp is the error of a probe's failed operation op: its errno's name.
func errnoOp(op string, e error) error { return fmt.Errorf("%s: %s", op, errnoName(e)) }

func errnoName(err error) string {
	var e syscall.Errno
	if errors.As(err, &e) {
		if n, ok := errnoNames[e]; ok {
			return n
		}
		return fmt.Sprintf("errno %d (%v)", uintptr(e), e)
	}
	return err.Error()
}
