// Package sandbox runs tools in worker processes that the kernel confines
// to the capabilities the tools declare.
//
// A worker is the program itself, re-executed with a hidden first
// argument: the program calls [Serve] before anything else when it sees
// that argument. A worker serves one tool. Where the kernel allows, it
// starts in user, PID, mount and IPC namespaces of its own, as the init
// of its PID namespace. Before it accepts work it restricts itself, for
// good, from its tool's capability set on its command line:
//
//   - every descriptor it inherited is closed but its pipes and standard
//     streams;
//   - in its mount namespace, a /proc and a /dev/pts of its own, /dev/full
//     on /dev/zero (which cannot be mapped), and the workspace's .git, .hg
//     and .svn read-only for [tool.WriteFiles];
//   - resource limits ([Limits]): data, open files, file size;
//   - every capability set emptied on every thread, the bounding set
//     included; no_new_privs;
//   - Landlock (best effort from the kernel's ABI down to ABI 1): every
//     file access right the ABI knows is handled, and granted only where
//     the capabilities need it. Without [tool.ReadFiles] only
//     [RuntimeReadPaths] and the worker's executable can be read; without
//     [tool.WriteFiles] nothing can be written, created, removed or
//     renamed (with it, only under the workspace and the worker's private
//     temp directory); without [tool.Exec] nothing can be executed (with
//     it, anything, and [ExecReadPaths] can be read for the loader);
//     without [tool.Network] TCP connect and bind are denied (ABI 4), and
//     UDP too from ABI 10; signals and abstract unix sockets cannot reach
//     processes outside the worker (ABI 6);
//   - a seccomp filter: without [tool.Exec] no process creation (execve,
//     execveat, fork, vfork, clone without CLONE_THREAD, memfd_create);
//     for every tool clone3 fails with ENOSYS, and no process starts in a
//     new user namespace; without [tool.WriteFiles] no chmod,
//     chown, mknod or utimensat, and with it no device nodes and no set-user-ID or
//     set-group-ID mode; without
//     [tool.Network] no socket(2); for every tool no ptrace, namespaces,
//     mounts, io_uring, keys, BPF or perf events;
//   - not dumpable;
//   - an environment of the runtime's variables (TZ, GODEBUG, …), TMPDIR,
//     PATH and HOME with [tool.Exec], and the configured tool variables
//     only with [tool.Env]; never LLM_API_KEY.
//
// After each call the worker kills every process the call started.
// [tool.Unsafe] grants nothing at run time. What is not enforced on a
// machine is reported in [Enforcement.Missing]; [Check] tells it without
// starting a worker, and [Config.Require] refuses such tools instead of
// warning once. Elsewhere than Linux the workers give process isolation
// and kill-on-timeout only.
//
// The parent side is a [Pool]: warm workers per tool, one call at a time
// each, over a pipe per direction with a compact framing, at most
// [Config.MaxWorkers] alive, and [Config.Spares] started ahead for no
// tool: a worker does all that does not depend on its tool (descriptors,
// mounts, limits, capabilities) before the pool names it, so that a
// spare given a tool only restricts itself to that tool's capabilities. When a call's context ends its worker is
// killed, with everything it started; a worker that dies during a call
// (a panic in any goroutine, os.Exit, a signal) fails that call with
// [registry.KindCrashed], and the tool's next call gets a fresh one. A
// panic or runtime.Goexit in the tool's own goroutine is recovered by the
// worker ([registry.KindPanic]). Every failure is a [*registry.Error],
// with the registry's kinds. [NewPool] makes its process undumpable, so that no
// worker can read the parent's secrets.
package sandbox
