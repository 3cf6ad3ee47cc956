// Package sandbox runs tools in worker processes that the kernel confines
// to the capabilities the tools declare.
//
// A worker is the program itself, re-executed with a hidden first
// argument: the program calls [Serve] before anything else when it sees
// that argument. Before it accepts work the worker restricts itself, for
// good, from the capability set on its command line:
//
//   - no_new_privs, always;
//   - Landlock (best effort from the kernel's ABI down to ABI 1): every
//     file access right the ABI knows is handled, and granted only where
//     the capabilities need it. Without [tool.ReadFiles] only
//     [RuntimeReadPaths] and the worker's executable can be read; without
//     [tool.WriteFiles] nothing can be written, created, removed or
//     renamed (with it, only under the workspace and the temp directory,
//     which are writable but not readable without [tool.ReadFiles]);
//     without [tool.Exec] nothing can be executed (with it, anything, and
//     [ExecReadPaths] can be read for the loader); without
//     [tool.Network] TCP connect and bind are denied (ABI 4), and UDP too
//     from ABI 10; signals and abstract unix sockets cannot reach
//     processes outside the worker (ABI 6);
//   - without [tool.Network], a seccomp filter that makes socket(2) and
//     io_uring_setup(2) fail with EPERM, so UDP, raw and unix sockets are
//     denied on kernels whose Landlock does not cover them;
//   - an environment of the runtime's variables (TZ, GODEBUG, …), TMPDIR,
//     PATH and HOME with [tool.Exec], and the configured tool variables
//     only with [tool.Env]; never LLM_API_KEY.
//
// [tool.Unsafe] grants nothing at run time. What is not enforced on a
// machine is reported in [Enforcement.Missing]; [Check] tells it without
// starting a worker, and [Config.Require] refuses such tools instead of
// warning once. Elsewhere than Linux the workers give process isolation
// and kill-on-timeout only.
//
// The parent side is a [Pool]: warm workers per capability set, one call
// at a time each, over a pipe per direction with a compact framing. When
// a call's context ends, the worker's process group is killed and a fresh
// worker takes its place; a worker that dies during a call (a panic in
// any goroutine, os.Exit, a signal) fails that call with [KindCrashed]
// and the next call gets a fresh one. A panic or runtime.Goexit in the
// tool's own goroutine is recovered by the worker ([KindPanic]).
package sandbox
