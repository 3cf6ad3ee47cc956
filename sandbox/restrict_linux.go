//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
	"kernel.org/pub/linux/libs/security/libcap/psx"

	"github.com/toolreg/toolreg/tool"
)

// landlockConfigs are go-landlock's presets by ABI version; index 0 is
// unused.
var landlockConfigs = []landlock.Config{{}, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}

// landlockABI returns the Landlock ABI version of the running kernel,
// capped at the newest go-landlock knows, or 0 when there is none.
func landlockABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return min(v, len(landlockConfigs)-1)
}

// userNamespaces reports whether this process can likely give a worker
// user namespaces of its own (the pool finds out for sure when it
// starts one): the kernel allows them, and for a user other than root
// neither the Debian switch nor AppArmor's restriction forbids them.
func userNamespaces() bool {
	if n, ok := readSysctl("/proc/sys/user/max_user_namespaces"); !ok || n == 0 {
		return false
	}
	if os.Geteuid() == 0 {
		return true
	}
	if n, ok := readSysctl("/proc/sys/kernel/unprivileged_userns_clone"); ok && n == 0 {
		return false
	}
	if n, ok := readSysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); ok && n != 0 {
		return false
	}
	return true
}

func readSysctl(path string) (int, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return n, err == nil
}

// Check reports what a worker for caps would enforce on this machine,
// without starting one.
func Check(caps tool.Capability) Enforcement { return check(caps, userNamespaces()) }

// check is Check for workers with namespaces or without.
func check(caps tool.Capability, ns bool) Enforcement {
	abi := landlockABI()
	sc := seccompSupported()
	return Enforcement{OS: runtime.GOOS, Caps: caps.String(), LandlockABI: abi, Seccomp: sc, NoNewPrivs: true, Namespaces: ns, Missing: missing(caps, abi, sc, ns, hostRoot() && !(ns && perNamespacePidMax()))}
}

// Access rights, by what they are for.
const (
	rightsRead  = ll.AccessFSReadFile | ll.AccessFSReadDir
	rightsWrite = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
		ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSTruncate |
		ll.AccessFSRefer
	rightsFileOnly = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// closeInherited closes every descriptor the worker inherited but its
// standard streams and its two pipes: a descriptor the program that
// started the agent left open (a shell's 8> or 9<) would reach past
// every restriction. Descriptors that survived the exec are exactly the
// ones without close-on-exec; the Go runtime opens its own with it. The
// pipes are kept, with close-on-exec set.
func closeInherited() error {
	// The pipes stay the worker's: no program a tool starts gets them
	// (it could read the next calls or write answers of its own).
	for _, fd := range []int{requestFD, responseFD} {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
			return fmt.Errorf("close-on-exec for the worker's pipe %d: %w", fd, err)
		}
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("listing the inherited descriptors: %w", err)
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= responseFD {
			continue
		}
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil || flags&unix.FD_CLOEXEC != 0 {
			continue // closed meanwhile (the directory's own), or the runtime's
		}
		if err := unix.Close(fd); err != nil {
			return fmt.Errorf("closing inherited descriptor %d: %w", fd, err)
		}
	}
	return nil
}

// prepared is what prepare did: the restrictions in force before the
// worker knows its tool.
type prepared struct {
	enf Enforcement
	// vcsErr is why the workspace's version-control directories could
	// not be made read-only: a tool with tool.WriteFiles is refused.
	vcsErr error
	// tempErr is why the other workers' temp directories could not be
	// covered (ownTempDir): where they are in the workspace, a tool with
	// tool.WriteFiles is refused, and a tool with tool.ReadFiles has the
	// gap named.
	tempErr error
	// root is whether the worker runs as the machine's root (read
	// before Landlock hides /proc/self/uid_map).
	root bool
	// ptsErr is why the worker could not put a devpts of its own on
	// /dev/pts: a tool with tool.ReadFiles could read the user's
	// terminals, which Missing says.
	ptsErr error
	// zeroErr is why the worker could not put /dev/full on /dev/zero: a
	// tool with tool.ReadFiles could map /dev/zero shared, memory no
	// limit counts, which Missing says.
	zeroErr error
	// watchErr is why the worker could not bound the inotify and
	// fanotify objects of its user namespace: a tool could take all of
	// the user's, which Missing says.
	watchErr error
	// pidsBounded is whether the worker bounded the process ids of its
	// PID namespace (boundPIDs): its processes and threads are bounded,
	// root's too.
	pidsBounded bool
}

// prepare does what every worker does before it knows its tool, so that
// a worker started ahead has done it when a tool is given to it: in
// namespaces of its own (when s.namespaces) it makes its mounts private,
// mounts a /proc of its own and makes the workspace's version-control
// directories read-only; it sets its resource limits, empties every
// capability set of every thread, and sets no_new_privs.
func prepare(s spec) (prepared, error) {
	p := prepared{enf: Enforcement{OS: runtime.GOOS}, root: hostRoot()}
	if s.namespaces {
		vcsErr, tempErr, err := isolateMounts(s)
		if err != nil {
			return p, err
		}
		p.vcsErr, p.tempErr = vcsErr, tempErr
		p.ptsErr = ownTerminals()
		p.zeroErr = unmappableZero()
		p.watchErr = boundWatches()
		p.pidsBounded = boundPIDs(s.limits.Processes)
		p.enf.Namespaces = true
	}
	if err := setLimits(s.limits); err != nil {
		return p, err
	}
	if err := dropCapabilities(); err != nil {
		return p, err
	}
	if err := ll.AllThreadsPrctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return p, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	p.enf.NoNewPrivs = true
	return p, nil
}

// stackLimit bounds the main thread's stack of a worker whose tool has
// no tool.Exec: the kernel's default.
const stackLimit = 8 << 20

// addressMargin is the address space a worker whose tool has no
// tool.Exec may have past its data limit.
const addressMargin = 64 << 30

// confine restricts the prepared process, for good, to what s.caps
// allow: Landlock for files, TCP and IPC scopes, a seccomp filter, and
// not dumpable. It fails when a restriction that the kernel offers
// cannot be applied; what the kernel does not offer is listed in the
// result's Missing.
func (p prepared) confine(s spec) (Enforcement, error) {
	e := p.enf
	e.Caps = s.caps.String()
	if p.vcsErr != nil && s.caps&tool.WriteFiles != 0 {
		return e, p.vcsErr
	}
	if parent := filepath.Dir(s.tempDir); p.tempErr != nil && s.caps&tool.WriteFiles != 0 && parent != s.workDir && inWorkspace(s.workDir, parent) {
		return e, p.tempErr
	}
	// The processes of a tool that starts programs, and the threads of
	// every tool (a tool without tool.Exec could otherwise take every
	// process id of the machine), counted in the worker's own user
	// namespace (without one the count would be every process of the
	// user).
	if s.namespaces && s.limits.Processes > 0 {
		n := uint64(s.limits.Processes)
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: n, Max: n}); err != nil {
			return e, fmt.Errorf("setrlimit(RLIMIT_NPROC, %d): %w", n, err)
		}
	}
	if s.caps&tool.Exec == 0 {
		// The main thread's stack grows down as far as RLIMIT_STACK lets
		// it, which a tool may raise to its hard limit (unlimited, most
		// often): the kernel counts a stack as stack, not data, and a tool
		// touched 400 MiB below its stack under a 256 MiB data limit.
		// The Go runtime's main thread needs little; the programs of a
		// tool with exec may raise it, and their memory is not bounded
		// anyway.
		var rl unix.Rlimit
		if err := unix.Getrlimit(unix.RLIMIT_STACK, &rl); err != nil {
			return e, fmt.Errorf("getrlimit(RLIMIT_STACK): %w", err)
		}
		rl.Cur = min(rl.Cur, stackLimit)
		rl.Max = rl.Cur
		if err := unix.Setrlimit(unix.RLIMIT_STACK, &rl); err != nil {
			return e, fmt.Errorf("setrlimit(RLIMIT_STACK, %d): %w", rl.Cur, err)
		}
		// Nor does it count the page tables of mappings that are not
		// writable: a tool mapped 256 GiB read-only and read a byte of
		// every 2 MiB, which took 512 MiB of page tables under a 256 MiB
		// data limit, and the address space holds 128 TiB. Bounding the
		// address space bounds them, to a 512th of it. The Go runtime
		// reserves address space it does not use (2 GiB for 512 MiB of
		// data): the margin leaves room for it, and for files mapped to
		// be read.
		if s.limits.Memory > 0 && !raceEnabled {
			n := uint64(s.limits.Memory) + addressMargin
			if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: n, Max: n}); err != nil {
				return e, fmt.Errorf("setrlimit(RLIMIT_AS, %d): %w", n, err)
			}
		}
	}
	// The Go runtime's epoll instance, made when it first opens a file
	// it may poll: the filter lets a tool without tool.Exec or
	// tool.Network make none (see filterRules).
	if f, err := os.Open(os.DevNull); err == nil {
		f.Close()
	}
	abi := landlockABI()
	if abi > 0 {
		cfg, rules, err := landlockRules(s, abi)
		if err != nil {
			return e, err
		}
		if err := cfg.BestEffort().Restrict(rules...); err != nil {
			return e, fmt.Errorf("landlock (ABI %d): %w", abi, err)
		}
		e.LandlockABI = abi
	}

	if seccompSupported() {
		if err := loadFilter(s.caps); err != nil {
			return e, fmt.Errorf("seccomp filter: %w", err)
		}
		e.Seccomp = true
	}
	// Not dumpable: no process of the same user can read the worker's
	// memory or environment (the tool's secrets) through /proc.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return e, fmt.Errorf("prctl(PR_SET_DUMPABLE): %w", err)
	}
	e.Missing = missing(s.caps, e.LandlockABI, e.Seccomp, e.Namespaces, p.root && !p.pidsBounded)
	if p.watchErr != nil {
		e.Missing = append(e.Missing, "the tool may take every inotify instance and watch of the user: "+p.watchErr.Error())
	}
	if p.zeroErr != nil && s.caps&tool.ReadFiles != 0 && s.caps&tool.Exec == 0 {
		e.Missing = append(e.Missing, "the tool may hold shared memory past its memory limit, mapping /dev/zero: "+p.zeroErr.Error())
	}
	if p.ptsErr != nil && s.caps&tool.ReadFiles != 0 {
		e.Missing = append(e.Missing, "the user's terminals in /dev/pts can be read: "+p.ptsErr.Error())
	}
	if parent := filepath.Dir(s.tempDir); !e.Namespaces && s.caps&tool.WriteFiles != 0 && parent != s.workDir && inWorkspace(s.workDir, parent) {
		e.Missing = append(e.Missing, "the other workers' temp directories can be changed: they are in the workspace, and no mount namespace covers them")
	}
	if e.Namespaces && p.tempErr != nil && s.caps&tool.ReadFiles != 0 {
		e.Missing = append(e.Missing, otherTempDirsGap+": "+p.tempErr.Error())
	}
	e.Missing = append(e.Missing, mountGaps(s.caps, e.Namespaces, s.protect, s.hide)...)
	if s.vcsPartial && e.Namespaces && s.caps&tool.WriteFiles != 0 {
		// Past the search's bounds, which earlier tools may have filled,
		// or behind a .git link, which a tool may replace.
		e.Missing = append(e.Missing, "some version-control directories of the workspace can be changed: past the search's bounds, or behind a .git that is a symbolic link (the log says which)")
	}
	return e, nil
}

// isolateMounts runs in the worker's own user and mount namespaces
// before it drops its capabilities there: it keeps its mounts from
// propagating to the host's, mounts a /proc of its PID namespace (the
// agent and other workers are not in it), and makes the workspace's
// version-control directories read-only and covers the other workers'
// temp directories (ownTempDir), for every worker, since it does not
// know its tool yet. Where those steps fail, it returns why as vcsErr
// and tempErr (see prepared).
func isolateMounts(s spec) (vcsErr, tempErr, err error) {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, nil, fmt.Errorf("making the worker's mounts private: %w", err)
	}
	// A /proc of its own, or none: with the host's, /proc/1 would be the
	// machine's init, not the worker, and the threads of every call that
	// reaches all of the worker's (psx, behind dropCapabilities) are read
	// from /proc/<pid>/task: the worker would wait on the init's for ever.
	// The kernel refuses the mount (EPERM) where parts of the host's /proc
	// are covered (a container that masks them): the pool then starts its
	// workers without namespaces (errProcRefused). Another failure fails
	// this worker only.
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		if errors.Is(err, unix.EPERM) {
			return nil, nil, fmt.Errorf("%w: %w (the kernel refuses it where parts of the host's /proc are covered, as in some containers)", errProcRefused, err)
		}
		return nil, nil, fmt.Errorf("%s: %w", errProcRefused.Error(), err)
	}
	// The directories between the workspace and a nested one become
	// mount points of their own, writable: a mount point cannot be
	// renamed (EBUSY), and the read-only mount below would otherwise
	// move with its renamed parent, leaving its path to a git directory
	// a tool makes there. The same holds for the directory of the
	// workers' temp directories (ownTempDir covers it), whose parent a
	// tool would rename and make again: the pool's next worker, another
	// tool's, would get its temp directory there, out of the first
	// tool's covering mount; and for the agent's hidden state. Top down,
	// and recursive, so that each keeps what is mounted below it.
	guarded := slices.Concat(s.vcs, s.protect, resolved(s.hide))
	if s.tempDir != "" {
		guarded = append(guarded, resolved([]string{filepath.Dir(s.tempDir)})...)
	}
	for _, a := range vcsAncestors(s.workDir, guarded) {
		// Gone since the pool's search (a repository removed), or no
		// longer a directory: nothing below it to keep in place.
		if fi, err := os.Lstat(a); err != nil || !fi.IsDir() {
			continue
		}
		if err := unix.Mount(a, a, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("making %s a mount point: %w", a, err), nil, nil
		}
	}
	dirs := make([]string, 0, len(vcsDirs)+len(s.vcs))
	for _, name := range vcsDirs {
		dirs = append(dirs, filepath.Join(s.workDir, name))
	}
	for _, p := range append(dirs, s.vcs...) {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err := bindReadOnly(p); err != nil {
			return fmt.Errorf("making %s read-only: %w", p, err), nil, nil
		}
	}
	// The agent's config, where the workspace holds it: a tool that
	// writes files would change the programs the agent starts next. A
	// file gone since the pool was made is left: the agent does not
	// read it again.
	for _, f := range s.protect {
		if fi, err := os.Lstat(f); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := bindReadOnly(f); err != nil {
			return fmt.Errorf("making %s read-only: %w", f, err), nil, nil
		}
	}
	// The agent's own state, covered by an empty file system: a tool that
	// reads files would read the OAuth tokens of its MCP servers. A
	// directory gone since the pool was made has nothing to hide.
	for _, d := range s.hide {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			continue
		}
		const flags = unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
		if err := unix.Mount("tmpfs", d, "tmpfs", flags, "mode=0555,size=4k,nr_inodes=1"); err != nil {
			return nil, nil, fmt.Errorf("hiding %s: %w", d, err)
		}
	}
	// Where it fails, as where the version-control directories could not
	// be made read-only, a tool that writes is refused where the temp
	// directories are in the workspace; a tool that reads has the gap
	// named (see confine).
	return nil, ownTempDir(s), nil
}

// resolved returns paths with their symbolic links resolved, as the
// workspace's are (vcsAncestors); a path that cannot be resolved is
// kept as it is.
func resolved(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		out = append(out, p)
	}
	return out
}

// ownTempDir covers the directory of the worker's temp directory with an
// empty file system of its own, read-only but for the worker's temp
// directory mounted back in it: the pool puts the workers' temp
// directories in one of its own (see NewPool). A tool that reads files
// would read what the others' tools wrote there, and where it is in the
// workspace a tool that writes the workspace would write in the
// others', what a tool with tool.Exec writes to run among it.
func ownTempDir(s spec) error {
	parent := filepath.Dir(s.tempDir)
	if parent == s.workDir || parent == "/" {
		return nil
	}
	fd, err := unix.Open(s.tempDir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("the worker's temp directory: %w", err)
	}
	defer unix.Close(fd)
	const flags = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
	if err := unix.Mount("tmpfs", parent, "tmpfs", flags, "mode=0755,size=4k,nr_inodes=4"); err != nil {
		return fmt.Errorf("covering the workers' temp directories: %w", err)
	}
	own := filepath.Join(parent, filepath.Base(s.tempDir))
	if err := os.Mkdir(own, 0o700); err != nil {
		return fmt.Errorf("the worker's temp directory: %w", err)
	}
	if err := unix.Mount(fmt.Sprintf("/proc/self/fd/%d", fd), own, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("mounting the worker's temp directory back: %w", err)
	}
	if err := unix.Mount("", parent, "", unix.MS_REMOUNT|unix.MS_RDONLY|flags, ""); err != nil {
		return fmt.Errorf("the workers' temp directories read-only: %w", err)
	}
	return nil
}

// ownTerminals mounts a devpts instance of the worker's own on /dev/pts,
// in its mount namespace: the host's holds the user's terminals, owned
// by the user the worker's root maps to, and a tool that may read files
// would read what is typed in them (a password typed to sudo in another
// window), for as long as its worker lives. /dev/ptmx makes its
// terminals in the devpts beside it, this one. It holds a
// userShare-th of kernel.pty.max at most: the kernel counts the
// terminals of every devpts but the machine's first together, against
// kernel.pty.max less kernel.pty.reserve (3,072 by default), and four
// tools that read files took 3,071 of them and kept them, after which
// no other worker, and no container on the machine, could open a
// terminal (ENOSPC).
func ownTerminals() error {
	if fi, err := os.Stat("/dev/pts"); err != nil || !fi.IsDir() {
		return nil // no terminals to hide
	}
	limit, ok := readSysctl("/proc/sys/kernel/pty/max")
	if !ok {
		limit = defaultPtyMax
	}
	opts := fmt.Sprintf("newinstance,mode=0600,ptmxmode=0666,max=%d", max(limit/userShare, 1))
	if err := unix.Mount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, opts); err != nil {
		return fmt.Errorf("mounting a devpts of the worker's own on /dev/pts: %w", err)
	}
	return nil
}

// defaultPtyMax is the kernel's default kernel.pty.max.
const defaultPtyMax = 4096

// unmappableZero puts /dev/full on /dev/zero, in the worker's mount
// namespace. A shared mapping of /dev/zero is shared memory (shmem),
// which the data limit does not count: the filter refuses shared
// anonymous mappings to tools without tool.Exec, but it cannot tell which
// file a mapping is of, and a tool with tool.ReadFiles may open
// /dev/zero. /dev/full reads as zeros too, and cannot be mapped (ENODEV);
// it refuses writes (ENOSPC), which /dev/zero would have discarded.
func unmappableZero() error {
	if _, err := os.Stat("/dev/zero"); err != nil {
		return nil // nothing to map
	}
	if err := unix.Mount("/dev/full", "/dev/zero", "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("putting /dev/full on /dev/zero: %w", err)
	}
	return nil
}

// userShare is the share of what the kernel counts per user (inotify and
// fanotify objects, pending signals) a worker may hold: with the pool's
// 16 workers at most, half of it.
const userShare = 32

// boundWatches bounds the inotify instances and watches and the
// fanotify groups and marks of the worker's user namespace to a
// userShare-th of the user's. The kernel counts them per user, in each
// user namespace up to the first (there 128 inotify instances by
// default, machine-wide): unbounded in its own, a tool with no
// capability at all made all 128 of the user's, and kept them after its
// call, and inotify_init of the agent and every other program of the
// user (an editor's file watcher; for root, the system's daemons) failed
// with EMFILE. The worker is its namespace's root, with the capability
// to set them, until it drops its capabilities.
func boundWatches() error {
	for _, l := range []struct{ host, own string }{
		{"/proc/sys/fs/inotify/max_user_instances", "max_inotify_instances"},
		{"/proc/sys/fs/inotify/max_user_watches", "max_inotify_watches"},
		{"/proc/sys/fs/fanotify/max_user_groups", "max_fanotify_groups"},
		{"/proc/sys/fs/fanotify/max_user_marks", "max_fanotify_marks"},
	} {
		n, ok := readSysctl(l.host)
		if !ok {
			continue // a kernel without it
		}
		own := filepath.Join("/proc/sys/user", l.own)
		if err := os.WriteFile(own, []byte(strconv.Itoa(max(n/userShare, 1))), 0); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return fmt.Errorf("bounding %s: %w", own, err)
		}
	}
	return nil
}

// reservedPIDs are the process ids a PID namespace does not give again
// once it has given them all up to its kernel.pid_max (the kernel's
// RESERVED_PIDS): it then gives those from here.
const reservedPIDs = 300

// boundPIDs bounds the process ids of the worker's PID namespace to
// reservedPIDs and n more, and reports whether it did: n processes and
// threads at once once the namespace has given the first ids out,
// reservedPIDs more before. RLIMIT_NPROC bounds them to n, but the
// kernel exempts root from it, in a user namespace too: as root, a tool
// with no capability made 704 threads under a limit of 256, and could
// have taken every process id of the machine. The worker is its
// namespace's root, with the capability to set its kernel.pid_max,
// until it drops its capabilities; before Linux 6.14 kernel.pid_max is
// the machine's, and is left alone.
func boundPIDs(n int64) bool {
	if n <= 0 || !perNamespacePidMax() {
		return false
	}
	return os.WriteFile("/proc/sys/kernel/pid_max", []byte(strconv.FormatInt(reservedPIDs+n, 10)), 0) == nil
}

// perNamespacePidMax reports whether kernel.pid_max is a PID
// namespace's own (Linux 6.14 and later), as the running kernel's
// release says.
func perNamespacePidMax() bool {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return false
	}
	var major, minor int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 6 || major == 6 && minor >= 14
}

// bindReadOnly mounts p on itself read-only, keeping the flags of the
// mount it is on (a user namespace may not clear them).
func bindReadOnly(p string) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	return unix.Mount("", p, "", flags, "")
}

// setLimits sets the worker's resource limits, soft and hard.
func setLimits(l Limits) error {
	set := func(name string, res int, v int64) error {
		if v < 0 {
			return nil
		}
		if err := unix.Setrlimit(res, &unix.Rlimit{Cur: uint64(v), Max: uint64(v)}); err != nil {
			return fmt.Errorf("setrlimit(%s, %d): %w", name, v, err)
		}
		return nil
	}
	if !raceEnabled {
		if err := set("RLIMIT_DATA", unix.RLIMIT_DATA, l.Memory); err != nil {
			return err
		}
	}
	if err := set("RLIMIT_NOFILE", unix.RLIMIT_NOFILE, l.Files); err != nil {
		return err
	}
	if err := set("RLIMIT_FSIZE", unix.RLIMIT_FSIZE, l.FileSize); err != nil {
		return err
	}
	// No core dumps, of the worker or of any program it runs: a tool
	// may make its worker dumpable again, and a program is dumpable
	// anyway. Where core_pattern is a pipe (systemd-coredump, apport),
	// the kernel hands a crashing worker's memory to a root helper
	// outside every limit of the worker's, which stores it on disk after
	// the call, and it ignores a core limit of 0 there; a limit of 1 is
	// no dump at all, to a pipe or to a file.
	if err := set("RLIMIT_CORE", unix.RLIMIT_CORE, 1); err != nil {
		return err
	}
	// The signals queued and the POSIX timers of all the processes of
	// a user count together, against the limit of the process that
	// queues one more: a tool with no capability made 96,369 timers, its
	// user's whole limit, and the agent's timer_create failed with
	// EAGAIN (and so would the user's other programs' timers and
	// real-time signals, for root the system's daemons'). A worker may
	// hold a userShare-th of them.
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_SIGPENDING, &rl); err != nil {
		return fmt.Errorf("getrlimit(RLIMIT_SIGPENDING): %w", err)
	}
	if rl.Cur == unix.RLIM_INFINITY {
		return nil // nobody's count is bounded
	}
	return set("RLIMIT_SIGPENDING", unix.RLIMIT_SIGPENDING, int64(max(rl.Cur/userShare, 64)))
}

// dropCapabilities empties every capability set of every thread: the
// bounding set (so that executing a program as root gains nothing), the
// ambient, inheritable, permitted and effective sets. Each change is a
// round over every thread (a signal to each, which runs the system call
// in it): one per capability of the bounding set, the greater part of a
// worker's start after the runtime's own. A worker of a
// user other than root outside a user namespace of its own has none to
// drop, and may not shrink its bounding set: no_new_privs then keeps it
// from gaining any.
func dropCapabilities() error {
	// Each drop is a round over every thread: ask only of the capabilities
	// the kernel knows, and of those still in this thread's set, and not
	// at all without CAP_SETPCAP, when every drop would fail (a user other
	// than root, whose capabilities went at exec).
	last, ok := readSysctl("/proc/sys/kernel/cap_last_cap")
	if !ok {
		last = 63
	}
	if !hasEffective(unix.CAP_SETPCAP) {
		last = -1
	}
	// What some thread still holds: none where the worker's constructor
	// emptied the set before any other thread was made (see boundingEnv).
	held := boundingSets()
	for c := uintptr(0); int(c) <= last; c++ {
		if c < 64 && held&(1<<c) == 0 {
			continue
		}
		err := ll.AllThreadsPrctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the last capability the kernel knows
		}
		if err != nil && !errors.Is(err, unix.EPERM) {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	// capset empties the ambient set too: the kernel keeps in it only
	// what stays both permitted and inheritable, so a round of
	// PR_CAP_AMBIENT_CLEAR_ALL over every thread would do nothing more.
	hdr := &unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	data := new([2]unix.CapUserData)
	if _, _, errno := psx.Syscall3(unix.SYS_CAPSET, uintptr(unsafe.Pointer(hdr)), uintptr(unsafe.Pointer(&data[0])), 0); errno != 0 {
		return fmt.Errorf("capset: %w", errno)
	}
	runtime.KeepAlive(hdr)
	runtime.KeepAlive(data)
	// Check what this thread holds now.
	got := new([2]unix.CapUserData)
	hdr.Pid = 0
	if err := unix.Capget(hdr, &got[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	for _, d := range got {
		if d.Effective|d.Permitted|d.Inheritable != 0 {
			return fmt.Errorf("capabilities remain after capset: %+v", *got)
		}
	}
	return nil
}

// boundingSets returns the union of the bounding sets of every thread of
// the process, as /proc/self/task tells them; every capability when it
// cannot tell, so that nothing is left held for a file it could not
// read.
func boundingSets() uint64 {
	const all = ^uint64(0)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil || len(tasks) == 0 {
		return all
	}
	var union uint64
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc/self/task", t.Name(), "status"))
		if err != nil {
			return all
		}
		set, ok := capBnd(string(b))
		if !ok {
			return all
		}
		union |= set
	}
	return union
}

// capBnd reads the CapBnd line of a /proc status file.
func capBnd(status string) (uint64, bool) {
	for line := range strings.Lines(status) {
		if v, ok := strings.CutPrefix(line, "CapBnd:"); ok {
			set, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				return 0, false
			}
			return set, true
		}
	}
	return 0, false
}

// hasEffective reports whether the calling thread has capability c in
// its effective set; true when it cannot tell.
func hasEffective(c int) bool {
	hdr := &unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(hdr, &data[0]); err != nil {
		return true
	}
	return data[c/32].Effective&(1<<(c%32)) != 0
}

// readAnywhere returns the rules of a tool with tool.ReadFiles: every
// directory may be listed and every file read, but the character
// devices of /dev other than those of memDevices and devTTY and devPtmx.
// The others are the user's consoles, serial lines and keyboards
// (/dev/ttyN, /dev/console, /dev/input), which give what is typed there
// to whoever reads first (the worker has a /dev/pts of its own for the
// rest), and devices that act when opened: a rule on / would give them
// all. Each entry of / but /dev is granted by a rule of its own, and so
// is each entry of /dev, down the directories of /dev's file system (the
// file systems mounted in it, /dev/shm among them, whole); what cannot
// be looked at is left unreadable, and an entry made in / or /dev
// afterwards too. Without namespaces (a worker that has the machine's
// /proc and /dev/pts), /proc is granted entry by entry too, but for the
// directories of the other processes: the kernel shows a process's
// command line and status to any other, with no ptrace check for
// Landlock to scope, and the agent's command line may hold secrets (an
// MCP server's -mcp-header). The worker's own directory stays, and
// /proc/self with it; a program it starts has no /proc/self. Nor is a
// devpts granted, nor /dev/ptmx, which makes its terminals in the one
// beside it: the machine's holds the user's terminals, the agent's
// among them, owned by the user the worker runs as, and a tool with
// read_files read what was typed in one. With noZero (a worker without
// a mount namespace, which cannot put /dev/full on /dev/zero, whose
// tool has no tool.Exec), /dev/zero is not granted either: a shared
// mapping of it is shared memory the data limit does not count (see
// unmappableZero).
func readAnywhere(handled landlock.AccessFSSet, noNamespaces, noZero bool) []landlock.Rule {
	var rules []landlock.Rule
	// grant gives rights on p, whose (followed) stat is st.
	grant := func(rights landlock.AccessFSSet, p string, st *unix.Stat_t) {
		typ := st.Mode & unix.S_IFMT
		if typ == unix.S_IFCHR && (!readableDevice(uint64(st.Rdev)) || noNamespaces && st.Rdev == devPtmx || noZero && st.Rdev == devZero) {
			return // a link to such a device, or one outside /dev
		}
		r := rights & handled
		if typ != unix.S_IFDIR {
			r &= rightsFileOnly
		}
		if r != 0 {
			rules = append(rules, landlock.PathAccess(r, p).IgnoreIfMissing())
		}
	}
	var root, dev unix.Stat_t
	if err := unix.Stat("/", &root); err != nil {
		return nil
	}
	grant(ll.AccessFSReadDir, "/", &root)
	devErr := unix.Stat("/dev", &dev)
	ents, _ := os.ReadDir("/")
	for _, e := range ents {
		p := "/" + e.Name()
		var st unix.Stat_t // what a rule on p holds: a link's target
		if err := unix.Stat(p, &st); err != nil || p == "/dev" || devErr == nil && st.Dev == dev.Dev && st.Ino == dev.Ino {
			continue
		}
		if p == "/proc" && noNamespaces {
			grant(ll.AccessFSReadDir, p, &st)
			ownProc(grant)
			continue
		}
		grant(rightsRead, p, &st)
	}
	if devErr != nil {
		return rules
	}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				// Its target is judged where it is.
			case e.IsDir():
				var st unix.Stat_t
				if err := unix.Lstat(p, &st); err != nil {
					continue
				}
				if st.Dev != dev.Dev {
					var fs unix.Statfs_t
					if noNamespaces && (unix.Statfs(p, &fs) != nil || fs.Type == unix.DEVPTS_SUPER_MAGIC) {
						continue // the machine's terminals
					}
					grant(rightsRead, p, &st) // a file system of its own
				} else if depth < 4 {
					walk(p, depth+1)
				}
			case e.Type()&fs.ModeCharDevice != 0:
				var st unix.Stat_t
				if err := unix.Lstat(p, &st); err == nil && st.Mode&unix.S_IFMT == unix.S_IFCHR {
					grant(ll.AccessFSReadFile, p, &st)
				}
			default:
				grant(ll.AccessFSReadFile, p, &unix.Stat_t{Mode: unix.S_IFREG})
			}
		}
	}
	walk("/dev", 0)
	return rules
}

// ownProc grants, through grant, each entry of /proc but the
// directories of processes other than the worker: those named by a
// number (its own excepted), and the links to them (self and
// thread-self name the worker's).
func ownProc(grant func(landlock.AccessFSSet, string, *unix.Stat_t)) {
	own := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		name := e.Name()
		if name != own && strings.Trim(name, "0123456789") == "" {
			continue // another process
		}
		p := "/proc/" + name
		var st unix.Stat_t
		if err := unix.Stat(p, &st); err != nil {
			continue
		}
		grant(rightsRead, p, &st)
	}
}

// The character devices a tool with tool.ReadFiles may read: those of
// the memory devices' major (null, zero, full, random, urandom, kmsg;
// mem and port need a capability), the calling process's terminal
// (which a worker does not have), and the multiplexor of its own
// /dev/pts.
const (
	memDevices = 1
	devTTY     = 5<<8 | 0
	devPtmx    = 5<<8 | 2
	devZero    = memDevices<<8 | 5
)

// readableDevice reports whether a character device numbered rdev may
// be read by a tool with tool.ReadFiles.
func readableDevice(rdev uint64) bool {
	major, minor := unix.Major(rdev), unix.Minor(rdev)
	n := major<<8 | minor
	return major == memDevices || n == devTTY || n == devPtmx
}

// landlockRules builds the ruleset for s on a kernel with Landlock ABI
// abi: every right the ABI knows is handled, and granted only where s
// needs it.
func landlockRules(s spec, abi int) (landlock.Config, []landlock.Rule, error) {
	cfg := landlockConfigs[abi]
	handled := cfg.HandledAccessFS
	if s.namespaces {
		// In a PID namespace of its own the worker can signal only the
		// processes its calls started, which it must be able to end
		// (endLeftovers). Landlock would refuse some of those signals:
		// go-landlock restricts each thread of the worker by itself,
		// which gives each a domain of its own, and a process started
		// from one thread is outside the domain of every other.
		cfg.Scoped &^= ll.ScopeSignal
	}
	if s.caps&tool.Network != 0 {
		cfg.HandledAccessNet = 0 // network tools may connect and bind anywhere
	}

	var rules []landlock.Rule
	add := func(rights landlock.AccessFSSet, paths ...string) error {
		rights &= handled
		for _, p := range paths {
			fi, err := os.Stat(p)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				return fmt.Errorf("landlock rule for %s: %w", p, err)
			}
			r := rights
			if !fi.IsDir() {
				r &= rightsFileOnly
			}
			if r != 0 {
				rules = append(rules, landlock.PathAccess(r, p))
			}
		}
		return nil
	}

	exe, err := os.Executable()
	if err != nil {
		return cfg, nil, fmt.Errorf("landlock rules: the worker's executable: %w", err)
	}
	if err := add(ll.AccessFSReadFile, exe); err != nil {
		return cfg, nil, err
	}
	if err := add(rightsRead, RuntimeReadPaths...); err != nil {
		return cfg, nil, err
	}
	// /dev/null holds nothing: writing it changes nothing, and os/exec
	// opens it for a child's unused output.
	if err := add(ll.AccessFSWriteFile, "/dev/null"); err != nil {
		return cfg, nil, err
	}
	if s.caps&tool.ReadFiles != 0 {
		rules = append(rules, readAnywhere(handled, !s.namespaces, !s.namespaces && s.caps&tool.Exec == 0)...)
	}
	if s.caps&tool.Exec != 0 {
		if err := add(ll.AccessFSExecute, "/"); err != nil {
			return cfg, nil, err
		}
		if err := add(rightsRead, ExecReadPaths...); err != nil {
			return cfg, nil, err
		}
	}
	if s.caps&tool.WriteFiles != 0 {
		if err := add(rightsWrite, s.workDir); err != nil {
			return cfg, nil, err
		}
		// The worker's temp directory is its own: it may read back what
		// it wrote there.
		if err := add(rightsWrite|rightsRead, s.tempDir); err != nil {
			return cfg, nil, err
		}
	}
	if s.caps&tool.Network != 0 {
		// Pathname unix sockets (ABI 9) count as network.
		if err := add(ll.AccessFSResolveUnix, "/"); err != nil {
			return cfg, nil, err
		}
	}
	return cfg, rules, nil
}
