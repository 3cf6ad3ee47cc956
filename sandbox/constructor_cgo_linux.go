//go:build linux && cgo

package sandbox

// A worker's first steps run here, in a constructor that the C runtime
// runs before the Go runtime starts a thread, when the pool asked for
// them in the worker's environment:
//
//   - namespacesEnv=unshare: the worker makes its own user, PID, mount
//     and IPC namespaces (unshare, which a process of one thread may do
//     and a Go program may not), maps its root to the user it runs as,
//     and forks: the child, the init of the new PID namespace, goes on to
//     be the worker, and the parent waits for it and exits as it did.
//     The pool then starts the worker with vfork, as it starts any
//     program: a clone with CLONE_NEWUSER copies the whole agent's page
//     tables, the agent writes the child's ID maps (being dumpable
//     meanwhile, one start at a time), and each page the agent writes
//     after is copied (startInNamespaces). Where the kernel refuses, the
//     worker goes on without namespaces and says why (namespacesError).
//   - boundingEnv=drop: the capability bounding set is emptied, one
//     prctl a capability on the one thread there is, where
//     dropCapabilities would need a round over every thread for each (41
//     rounds, 3-6 ms of a worker's start). It only ever takes
//     capabilities away, so a process that is not a worker and finds the
//     variable set loses nothing it may not lose. dropCapabilities still
//     checks every thread's set and drops what is left.
//
// The waiting parent keeps no descriptor of the worker's, cannot dump
// core, and is outside the worker's PID namespace, where the worker
// cannot name it; when it is killed (the pool kills the worker's process
// group, both of them), the worker is too (PR_SET_PDEATHSIG), and with
// it every process of its namespace.

/*
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// Why the worker has no namespaces of its own though it was asked to
// make them: the step that failed and its errno; 0 when it has them or
// was not asked.
static const char *toolreg_ns_step;
static int toolreg_ns_errno;

static int toolreg_write_file(const char *path, const char *s) {
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		return -1;
	}
	size_t n = strlen(s);
	ssize_t w = write(fd, s, n);
	int e = errno;
	close(fd);
	if (w != (ssize_t)n) {
		errno = w < 0 ? e : EIO;
		return -1;
	}
	return 0;
}

// toolreg_fail ends a worker that is half-way into its namespaces (in
// a user namespace without its maps, or without a child in the PID
// namespace): not a state to run a tool in.
static void toolreg_fail(const char *step) {
	dprintf(2, "sandbox worker: %s: %s\n", step, strerror(errno));
	_exit(1);
}

// toolreg_close_from closes every descriptor from fd up.
static void toolreg_close_from(unsigned int fd) {
	if (syscall(SYS_close_range, fd, ~0U, 0) == 0) {
		return;
	}
	long max = sysconf(_SC_OPEN_MAX);
	for (long i = fd; i < (max > 0 ? max : 1024); i++) {
		close((int)i);
	}
}

// toolreg_wait waits for the worker, pid, and exits as it did: with its
// status, or killed by the signal that killed it.
static void toolreg_wait(pid_t pid, int keep) {
	// Nothing of the worker's stays open here: its pipes end when it
	// does.
	for (int fd = 0; fd < keep; fd++) {
		close(fd);
	}
	toolreg_close_from((unsigned int)keep + 1);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	// It needs no capability to wait.
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof d);
	syscall(SYS_capset, &h, d);
	struct rlimit none = {0, 0};
	setrlimit(RLIMIT_CORE, &none);
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			_exit(1);
		}
	}
	if (WIFEXITED(st)) {
		_exit(WEXITSTATUS(st));
	}
	int sig = WTERMSIG(st);
	signal(sig, SIG_DFL);
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	raise(sig);
	_exit(128 + sig);
}

// toolreg_unshare makes the worker's namespaces and maps its root to
// the user it runs as. It reports whether it did; where the kernel
// refuses the namespaces, it records why and the worker goes on without.
static int toolreg_unshare(void) {
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char map[64];
	// A user namespace first (the kernel makes it before the others),
	// where the process holds every capability, so that it may make the
	// others.
	if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC) != 0) {
		toolreg_ns_step = "unshare";
		toolreg_ns_errno = errno;
		return 0;
	}
	// A process maps its own user and group alone, and the group only
	// once setgroups is denied.
	snprintf(map, sizeof map, "0 %u 1\n", (unsigned)uid);
	if (toolreg_write_file("/proc/self/uid_map", map) != 0) {
		toolreg_fail("writing /proc/self/uid_map");
	}
	if (toolreg_write_file("/proc/self/setgroups", "deny") != 0) {
		toolreg_fail("writing /proc/self/setgroups");
	}
	snprintf(map, sizeof map, "0 %u 1\n", (unsigned)gid);
	if (toolreg_write_file("/proc/self/gid_map", map) != 0) {
		toolreg_fail("writing /proc/self/gid_map");
	}
	return 1;
}

// toolreg_fork makes the init of the new PID namespace, which goes on to
// be the worker; the parent waits for it.
static void toolreg_fork(void) {
	// The parent holds the write end until it dies: the child finds it
	// closed if that happened before PR_SET_PDEATHSIG was set.
	int alive[2];
	if (pipe2(alive, O_CLOEXEC) != 0) {
		toolreg_fail("pipe2");
	}
	pid_t pid = fork();
	if (pid < 0) {
		toolreg_fail("fork");
	}
	if (pid > 0) {
		toolreg_wait(pid, alive[1]); // does not return
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	close(alive[1]);
	struct pollfd pf = {.fd = alive[0], .events = POLLIN};
	if (poll(&pf, 1, 0) != 0) {
		_exit(1); // the parent is gone, or poll failed: stop here
	}
	close(alive[0]);
}

__attribute__((constructor)) static void toolreg_sandbox_worker_start(void) {
	const char *v = getenv("TOOLREG_SANDBOX_NAMESPACES");
	int unshared = v != NULL && strcmp(v, "unshare") == 0 && toolreg_unshare();
	v = getenv("TOOLREG_SANDBOX_BOUNDING_SET");
	if (v != NULL && strcmp(v, "drop") == 0) {
		for (int c = 0; c < 64; c++) {
			if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0 && errno == EINVAL) {
				break; // past the last capability the kernel knows
			}
		}
	}
	// After the bounding set, which the waiting parent loses too.
	if (unshared) {
		toolreg_fork();
	}
}

static const char *toolreg_namespaces_step(void) { return toolreg_ns_step; }
static int toolreg_namespaces_errno(void) { return toolreg_ns_errno; }
*/
import "C"

import (
	"fmt"
	"syscall"
)

// hasConstructor says that a worker of this build can make its
// namespaces itself, in its constructor: a pool whose workers run this
// program then starts them with vfork.
const hasConstructor = true

// constructorNamespaces says why the constructor, asked to make the
// worker's namespaces, could not: the kernel refused them. It is nil when
// it made them or was not asked.
func constructorNamespaces() (refused error) {
	if C.toolreg_namespaces_step() == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", C.GoString(C.toolreg_namespaces_step()), syscall.Errno(C.toolreg_namespaces_errno()))
}
