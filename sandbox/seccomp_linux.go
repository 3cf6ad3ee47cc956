//go:build linux && (amd64 || arm64)

package sandbox

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/toolreg/toolreg/tool"
)

// The worker's seccomp filter is a short classic BPF program written
// here, not built by a library: the one used before initialised tables
// of every architecture's system calls in its package init, a tenth of a
// worker's start, for a filter of forty comparisons. The system call
// numbers are those of golang.org/x/sys/unix for the architecture the
// worker is compiled for (seccomp_amd64.go, seccomp_arm64.go); on other
// architectures there is no filter and Enforcement says so.

// Offsets in struct seccomp_data: the system call number, the audit
// architecture, and the low 32 bits of the arguments (little-endian).
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

// The filter's verdicts. clone3 gets ENOSYS, so that a C library falls
// back to clone, whose flags the filter can see.
const (
	retAllow   = unix.SECCOMP_RET_ALLOW
	retEPERM   = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retENOSYS  = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	retENOTSUP = unix.SECCOMP_RET_ERRNO | uint32(unix.EOPNOTSUPP)
)

// rule is one system call the filter answers with ret, always or when
// the low 32 bits of argument arg pass test, and those of the argument
// also names pass its test too.
type rule struct {
	nr    uint32
	ret   uint32
	arg   int
	test  argTest
	mask  uint32
	value uint32 // for equal and notEqual
	also  *argCond
}

// argCond is a second test of a rule, on another argument.
type argCond struct {
	arg   int
	test  argTest
	mask  uint32
	value uint32
}

// argTest is how a rule tests its argument.
type argTest uint8

const (
	always   argTest = iota // no test: the call is answered whatever its arguments
	anySet                  // one of mask's bits is set
	noneSet                 // none of mask's bits is set
	equal                   // the bits of mask are value
	notEqual                // the bits of mask are not value
)

// deniedAlways are system calls no tool needs that reach past the other
// restrictions: other processes' memory, namespaces and mounts (the
// capabilities are gone, but a user namespace would give them back in
// it), io_uring (its requests bypass this filter), keys and BPF.
var deniedAlways = []uint32{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_UNSHARE, unix.SYS_SETNS, unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
	unix.SYS_MOUNT_SETATTR, unix.SYS_OPEN_TREE, unix.SYS_OPEN_TREE_ATTR, unix.SYS_MOVE_MOUNT, unix.SYS_FSOPEN, unix.SYS_FSMOUNT, unix.SYS_FSCONFIG, unix.SYS_FSPICK,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
}

// The ioctl requests that set a file's flags (nodump, noatime,
// append-only for those who may): FS_IOC_SETFLAGS, its 32-bit form, and
// FS_IOC_FSSETXATTR (_IOW('X', 32, struct fsxattr)); and those that
// change a file's metadata on a descriptor opened only for reading, for
// its owner: its generation number (FS_IOC_SETVERSION,
// _IOW('v', 2, long), and ext4's _IOW('f', 4, long)), fs-verity, which
// makes it read-only for good (FS_IOC_ENABLE_VERITY), and an encryption
// policy on an empty directory (FS_IOC_SET_ENCRYPTION_POLICY).
const (
	fsIocSetflags            = unix.FS_IOC_SETFLAGS
	fsIoc32Setflags          = 0x40046602
	fsIocFssetxattr          = 0x401c5820
	fsIocSetversion          = 0x40087602
	ext4IocSetversion        = 0x40086604
	fsIocEnableVerity        = unix.FS_IOC_ENABLE_VERITY
	fsIocSetEncryptionPolicy = unix.FS_IOC_SET_ENCRYPTION_POLICY
)

// The btrfs ioctls that make, delete or change subvolumes and
// snapshots, by their direction, type and number (mask btrfsIocMask:
// their argument's size does not matter): BTRFS_IOC_SNAP_CREATE,
// SUBVOL_CREATE, SNAP_DESTROY, DEFAULT_SUBVOL, SNAP_CREATE_V2,
// SUBVOL_CREATE_V2, SUBVOL_SETFLAGS, SET_RECEIVED_SUBVOL and
// SNAP_DESTROY_V2.
const btrfsIocMask = 0xc000ffff

var btrfsSubvolumeIoctls = []uint32{0x40009401, 0x4000940e, 0x4000940f, 0x40009413, 0x40009417, 0x40009418, 0x4000941a, 0xc0009425, 0x4000943f}

// userfaultfdIocNew is USERFAULTFD_IOC_NEW, _IO(0xAA, 0x00): the
// ioctl of /dev/userfaultfd that makes a userfaultfd.
const userfaultfdIocNew = 0xaa00

// ioprioWhoUser is IOPRIO_WHO_USER: ioprio_set of every process of a
// user.
const ioprioWhoUser = 3

// shmLock is SHM_LOCK, the shmctl command that locks a segment in
// memory.
const shmLock = 11

// ipv6FlowlabelMgr is IPV6_FLOWLABEL_MGR, the IPv6 socket option that
// takes and gives back flow labels.
const ipv6FlowlabelMgr = 32

// unixAddrMax bounds the length of a unix socket address: the kernel
// takes 110 bytes at most (sizeof(struct sockaddr_un)), and the filter
// tests lengths below the next power of two, 128.
const unixAddrMax = 127

// sockTypeNotStream are the bits of a socket type (its low four bits)
// that SOCK_STREAM, 1, does not have: every other type has one.
const sockTypeNotStream = 0xe

// sockTypeOther are the bits of a socket type (its low four bits) that
// none of SOCK_STREAM, SOCK_DGRAM and SOCK_RAW (1, 2, 3) has: every
// other type has one.
const sockTypeOther = 0xc

// setID are the mode bits that make a program run as its owner or
// group.
const setID = unix.S_ISUID | unix.S_ISGID

// filterRules are the rules of a worker for caps.
func filterRules(caps tool.Capability) []rule {
	var rules []rule
	deny := func(nrs ...uint32) {
		for _, nr := range nrs {
			rules = append(rules, rule{nr: nr, ret: retEPERM})
		}
	}
	deny(deniedAlways...)
	// No process in a new user namespace, whatever the tool: there it
	// holds every capability and may make the other namespaces, and each
	// one counts against the machine's limit, which a tool that took
	// them all would reach for the pool's next workers (unshare and setns
	// are denied above). clone3, whose flags the filter cannot read,
	// answers ENOSYS.
	rules = append(rules,
		rule{nr: unix.SYS_CLONE, ret: retEPERM, arg: 0, test: anySet, mask: unix.CLONE_NEWUSER},
		rule{nr: unix.SYS_CLONE3, ret: retENOSYS})
	// userfaultfd(2) is denied above; /dev/userfaultfd (Linux 6.1) makes
	// the same descriptor with an ioctl, which Landlock refuses on
	// devices only from ABI 5 (Linux 6.10), and a tool with read_files
	// may open it.
	rules = append(rules,
		rule{nr: unix.SYS_IOCTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: userfaultfdIocNew})
	// No file system encryption key is added or removed, whatever the
	// tool: the keys of a file system are claimed by user, the worker's
	// is the agent's, and the ioctls take any descriptor on the file
	// system, opened for reading; a tool that read a directory's policy
	// removed its user's claim to the key, which locked the directory
	// (an encrypted home) for every program of the user.
	for _, req := range []uint32{unix.FS_IOC_ADD_ENCRYPTION_KEY, unix.FS_IOC_REMOVE_ENCRYPTION_KEY, unix.FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS} {
		rules = append(rules, rule{nr: unix.SYS_IOCTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: req})
	}
	// No btrfs subvolume or snapshot is made, deleted or changed,
	// whatever the tool: Landlock does not see these ioctls, which the
	// kernel checks against the mode bits only, so that a tool made
	// directories where its user may write, and with write_files
	// snapshotted a subvolume of its workspace, files it wrote, into any
	// of them (.ssh/authorized_keys in a home directory).
	for _, req := range btrfsSubvolumeIoctls {
		rules = append(rules, rule{nr: unix.SYS_IOCTL, ret: retEPERM, arg: 1, test: equal, mask: btrfsIocMask, value: req})
	}
	// Nothing is created set-user-ID or set-group-ID, whatever the
	// tool: as root, such a program would run as root for whoever
	// reaches it, and a set-group-ID file without group execute keeps
	// its bit through writes. openat2, whose mode is in a struct the
	// filter cannot read, answers ENOSYS: C libraries and Go fall back to
	// openat.
	rules = append(rules,
		rule{nr: unix.SYS_OPENAT, ret: retEPERM, arg: 3, test: anySet, mask: setID},
		rule{nr: unix.SYS_OPENAT2, ret: retENOSYS})
	rules = append(rules, archCreateMode...)
	// No lease, whatever the tool: a lease on any file the worker's
	// user owns (the agent's user's) holds back every other process
	// that opens it for writing, or truncates it, for the kernel's
	// lease-break-time (45 s), after the call too while the worker
	// keeps it.
	rules = append(rules,
		rule{nr: unix.SYS_FCNTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: unix.F_SETLEASE})
	// No System V segment is locked in memory (shmctl's SHM_LOCK),
	// whatever the tool: the kernel counts a locked segment against the
	// locked memory of the user (its RLIMIT_MEMLOCK, counted in each
	// user namespace up to the machine's), and keeps it locked, out of
	// swap, while the segment lives, without a namespace of the
	// worker's past the worker. A tool with exec locked 8,388,608 bytes
	// in its worker and another worker 1,048,576 more; without
	// namespaces it took all of its user's 8 MiB, another worker's
	// first lock was refused (ENOMEM), as would be any program's of the
	// user, and the segments stay after the worker. Without exec,
	// shmctl is denied whole below; programs lock their memory with
	// mlock, which counts per process.
	rules = append(rules,
		rule{nr: unix.SYS_SHMCTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: shmLock})
	// The worker's parent-death signal, SIGKILL, is what ends it, and
	// with it every process of its PID namespace, when the agent dies
	// without ending it (killed, out of memory): a tool that set it to
	// 0, or to a signal it ignores, and blocked in its call ran on for
	// ever, reparented. No process may set another: the tool's programs,
	// which die with the worker anyway, may ask for SIGKILL.
	rules = append(rules,
		rule{nr: unix.SYS_PRCTL, ret: retEPERM, arg: 0, test: equal, mask: ^uint32(0), value: unix.PR_SET_PDEATHSIG,
			also: &argCond{arg: 1, test: notEqual, mask: ^uint32(0), value: uint32(unix.SIGKILL)}})
	// No process's resource limits but its own (prlimit64 with a pid
	// other than 0), whatever the tool: the kernel lets a process set
	// the limits of any other of its user, with no ptrace check Landlock
	// would scope, and without a PID namespace a tool with no capability
	// set another process's RLIMIT_NOFILE to 1; the agent, its parent,
	// would then open no file and no connection (or, with RLIMIT_CPU,
	// be killed). In a PID namespace it reaches its own programs only,
	// which set their own limits with pid 0.
	rules = append(rules,
		rule{nr: unix.SYS_PRLIMIT64, ret: retEPERM, arg: 0, test: notEqual, mask: ^uint32(0), value: 0})
	// Nor the priority, scheduling policy, CPUs or I/O priority of a
	// process but its own (pid 0), nor those of every process of its
	// user (setpriority's PRIO_USER, ioprio_set's IOPRIO_WHO_USER, whose
	// 0 is root): the kernel allows them on any process of the same
	// user, through hooks Landlock does not scope, and without a PID
	// namespace a tool could have reniced the agent, or every process of
	// the user (as root, every daemon of the machine), to 19, put it in
	// SCHED_IDLE or the idle I/O class, or pinned it to one CPU. nice,
	// ionice, taskset and chrt running a program ask with pid 0.
	const all = ^uint32(0)
	rules = append(rules,
		rule{nr: unix.SYS_SETPRIORITY, ret: retEPERM, arg: 0, test: equal, mask: all, value: unix.PRIO_USER},
		rule{nr: unix.SYS_SETPRIORITY, ret: retEPERM, arg: 1, test: notEqual, mask: all, value: 0},
		rule{nr: unix.SYS_IOPRIO_SET, ret: retEPERM, arg: 0, test: equal, mask: all, value: ioprioWhoUser},
		rule{nr: unix.SYS_IOPRIO_SET, ret: retEPERM, arg: 1, test: notEqual, mask: all, value: 0})
	for _, nr := range []uint32{unix.SYS_SCHED_SETSCHEDULER, unix.SYS_SCHED_SETPARAM, unix.SYS_SCHED_SETATTR, unix.SYS_SCHED_SETAFFINITY} {
		rules = append(rules, rule{nr: nr, ret: retEPERM, arg: 0, test: notEqual, mask: all, value: 0})
	}
	if caps&tool.Exec == 0 {
		// No process creation: threads (clone with CLONE_THREAD) only.
		deny(unix.SYS_EXECVE, unix.SYS_EXECVEAT, unix.SYS_MEMFD_CREATE)
		// Nor memory files of another kind: the pages of a secret memory
		// file (memfd_secret) stay with it when a window of it is
		// unmapped, where neither the data limit nor RLIMIT_MEMLOCK,
		// which counts what is mapped at once, sees them.
		deny(unix.SYS_MEMFD_SECRET)
		// Nor asynchronous I/O contexts: fs.aio-max-nr bounds the events
		// of every context of the machine together, whatever their user,
		// and a tool that took them all with io_setup left every other
		// program's io_setup failing (EAGAIN) while its worker lived.
		deny(unix.SYS_IO_SETUP)
		// Nor Landlock rulesets: each rule is kernel memory, and a
		// ruleset takes a rule for each TCP port (a tool with no
		// capability held 4,194,304 rules, 293 MiB, in 64 rulesets
		// under a 256 MiB limit, and a descriptor each allows a
		// thousand). ENOSYS, as where the kernel has no Landlock: the
		// worker's own restrictions hold whatever the tool adds, and
		// without a ruleset landlock_add_rule and
		// landlock_restrict_self have nothing to act on.
		rules = append(rules, rule{nr: unix.SYS_LANDLOCK_CREATE_RULESET, ret: retENOSYS})
		// Nor seccomp filters of its own, by seccomp(2) or prctl(2): a
		// filter is kernel memory (its program, translated and
		// compiled), and a user-notification listener's descriptor keeps
		// the filters of its thread after the thread ends (a tool with no
		// capability held 7,000 filters, 576 MiB, under a 256 MiB limit).
		// Strict mode, which holds nothing, stays; so does the worker's
		// own filter, loaded before.
		rules = append(rules,
			rule{nr: unix.SYS_SECCOMP, ret: retEPERM, arg: 0, test: equal, mask: ^uint32(0), value: unix.SECCOMP_SET_MODE_FILTER},
			rule{nr: unix.SYS_PRCTL, ret: retEPERM, arg: 0, test: equal, mask: ^uint32(0), value: unix.PR_SET_SECCOMP,
				also: &argCond{arg: 1, test: equal, mask: ^uint32(0), value: unix.SECCOMP_MODE_FILTER}})
		deny(archProcessCalls...)
		rules = append(rules,
			rule{nr: unix.SYS_CLONE, ret: retEPERM, arg: 0, test: noneSet, mask: unix.CLONE_THREAD})
		// Memory the limit (RLIMIT_DATA) does not count: System V
		// segments, semaphore sets and message queues (kernel memory: the
		// worker's IPC namespace allows tens of GiB of them), POSIX
		// message queues, shared anonymous mappings (the Go runtime maps
		// private memory only), and private mappings that grow down
		// (MAP_GROWSDOWN: the kernel counts them as stack, not data, and
		// bounds them by nothing; the Go runtime makes none).
		// memfd_create and memfd_secret are denied above. The programs a
		// tool with exec runs may need them.
		deny(unix.SYS_SHMGET, unix.SYS_SEMGET, unix.SYS_MSGGET, unix.SYS_MQ_OPEN)
		// Nor pipes larger than the kernel makes them (64 KiB): what a
		// pipe holds is kernel memory the limit does not count, and its
		// pages are charged to the user's fs.pipe-user-pages-soft, past
		// which every pipe any program of the user makes is of one page.
		// A tool with no capability held 71 MiB in 1,014 pipes grown to
		// 1 MiB (F_SETPIPE_SZ) under a 64 MiB limit; at 64 KiB its
		// descriptors (RLIMIT_NOFILE, 1,024) hold half that budget at
		// most. Neither the Go runtime nor its standard library grows a
		// pipe; the programs of a tool with exec may.
		rules = append(rules,
			rule{nr: unix.SYS_FCNTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: unix.F_SETPIPE_SZ})
		// With none of its own, a System V object is another program's:
		// the kernel checks its mode against the user alone, and Landlock
		// does not see it. In the worker's IPC namespace there is none;
		// without namespaces a tool with no capability attached and read
		// another program's shared memory segment and took a message off
		// its queue, by their ids.
		deny(unix.SYS_SHMAT, unix.SYS_SHMCTL, unix.SYS_SEMOP, unix.SYS_SEMTIMEDOP, unix.SYS_SEMCTL,
			unix.SYS_MSGSND, unix.SYS_MSGRCV, unix.SYS_MSGCTL)
		rules = append(rules,
			rule{nr: unix.SYS_MMAP, ret: retEPERM, arg: 3, test: equal, mask: unix.MAP_SHARED | unix.MAP_ANONYMOUS, value: unix.MAP_SHARED | unix.MAP_ANONYMOUS},
			rule{nr: unix.SYS_MMAP, ret: retEPERM, arg: 3, test: anySet, mask: unix.MAP_GROWSDOWN})
	}
	if caps&(tool.Exec|tool.Network) == 0 {
		// The kernel counts epoll watches per user, for every process
		// of the user (fs.epoll.max_user_watches), and a watch is a pair
		// of a file and a descriptor number in an instance, which stays
		// while the file lives whatever the number then holds: with
		// instances of its own and a pipe duplicated onto number after
		// number, a tool took every watch of its user (a gigabyte of
		// kernel memory), and the agent's runtime could poll no socket.
		// Without instances of its own (the Go runtime made its one
		// before the filter: see confine) and without duplicates (dup,
		// F_DUPFD, pidfd_getfd; socket pairs, which pass descriptors, are
		// denied below), a file has one number for life, and the worker
		// holds one watch per descriptor at most. The programs of a tool
		// with exec, and the sockets of one with network, need
		// instances and duplicates of their own.
		deny(unix.SYS_EPOLL_CREATE1, unix.SYS_DUP, unix.SYS_DUP3, unix.SYS_PIDFD_GETFD)
		deny(archEpollDup...)
		rules = append(rules,
			rule{nr: unix.SYS_FCNTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: unix.F_DUPFD},
			rule{nr: unix.SYS_FCNTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: unix.F_DUPFD_CLOEXEC})
	}
	if caps&(tool.Exec|tool.ReadFiles|tool.WriteFiles) == 0 {
		// No record locks for a tool that reads and writes no file of
		// its own: each lock is kernel memory the limit does not count,
		// and a file takes a lock for each byte (a tool with no
		// capability held 1,800,000 read locks, 343 MiB, on 900 files
		// of the zone database under a 256 MiB limit, and kept them
		// across calls). Neither the Go runtime nor its standard
		// library takes any; the locks of a reader (SQLite) and a writer
		// stay with read_files and write_files.
		for _, cmd := range []uint32{unix.F_SETLK, unix.F_SETLKW, unix.F_OFD_SETLK, unix.F_OFD_SETLKW} {
			rules = append(rules, rule{nr: unix.SYS_FCNTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: cmd})
		}
	}
	if caps&tool.ReadFiles == 0 {
		// Landlock keeps the directories it cannot read from being
		// listed, not from being watched: the names of the files made,
		// opened or changed there, and when.
		deny(unix.SYS_INOTIFY_ADD_WATCH, unix.SYS_FANOTIFY_INIT, unix.SYS_FANOTIFY_MARK)
		// Nor inotify instances, which without a watch see nothing: the
		// kernel counts them per user, machine-wide (128 by default),
		// and where workers run without namespaces no namespace of the
		// worker's bounds them (boundWatches), so that a tool with no
		// capability made all of its user's and kept them, and every
		// other program of the user (the agent, an editor's file
		// watcher; for root, the system's daemons) got EMFILE from
		// inotify_init1. The Go runtime and its standard library make
		// none.
		deny(unix.SYS_INOTIFY_INIT1)
		deny(archInotifyInit...)
		// Nor extended attributes, read by path where Landlock checks
		// nothing: the user's hold what a file's content does not say,
		// the address a browser downloaded it from
		// (user.xdg.origin.url), a checksum, a tag, and a tool with no
		// capability read them off a file outside its workspace.
		// EOPNOTSUPP, as where the file system has none: ls, cp and tar
		// then go on without them. The Go runtime and its standard
		// library read none.
		for _, nr := range []uint32{unix.SYS_GETXATTR, unix.SYS_LGETXATTR, unix.SYS_FGETXATTR, unix.SYS_GETXATTRAT,
			unix.SYS_LISTXATTR, unix.SYS_LLISTXATTR, unix.SYS_FLISTXATTR, unix.SYS_LISTXATTRAT} {
			rules = append(rules, rule{nr: nr, ret: retENOTSUP})
		}
		// Nor the mount table, which listmount(2) and statmount(2)
		// (Linux 6.8) give by mount id, where Landlock sees no path: a
		// tool with no capability, which cannot read
		// /proc/self/mountinfo, listed 23 mounts and read each one's
		// mount point and source (home directories, volumes, network
		// shares, and what they are mounted from). ENOSYS, as where the
		// kernel has neither: libmount then reads /proc/self/mountinfo,
		// which Landlock keeps unread.
		rules = append(rules,
			rule{nr: unix.SYS_LISTMOUNT, ret: retENOSYS},
			rule{nr: unix.SYS_STATMOUNT, ret: retENOSYS})
		// Nor can it read the kernel's log through syslog(2), which
		// Landlock does not see (it keeps /dev/kmsg unread) and the
		// kernel gives to anyone where kernel.dmesg_restrict is 0.
		deny(unix.SYS_SYSLOG)
	}
	if caps&tool.WriteFiles == 0 {
		// Metadata is outside Landlock's reach: modes, owners, extended
		// attributes (a POSIX ACL is a chmod), the flags of files and
		// what the ioctls above change, and times, which make, rsync,
		// backups and the cleaners of temp directories go by (a tool
		// with no capability set a file's outside its workspace to
		// 1970).
		deny(unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2, unix.SYS_FCHOWN, unix.SYS_FCHOWNAT, unix.SYS_MKNODAT, unix.SYS_UTIMENSAT)
		deny(unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
			unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
			unix.SYS_FILE_SETATTR)
		for _, req := range []uint32{fsIocSetflags, fsIoc32Setflags, fsIocFssetxattr, fsIocSetversion, ext4IocSetversion, fsIocEnableVerity, fsIocSetEncryptionPolicy} {
			rules = append(rules, rule{nr: unix.SYS_IOCTL, ret: retEPERM, arg: 1, test: equal, mask: ^uint32(0), value: req})
		}
		deny(archMetadataCalls...)
	} else {
		// Files, directories, fifos and sockets may be made; devices not
		// (S_IFCHR's bit is in S_IFBLK too), nor anything set-user-ID or
		// set-group-ID: as root, such a program in the workspace would
		// run as root for whoever reaches it.
		rules = append(rules,
			rule{nr: unix.SYS_MKNODAT, ret: retEPERM, arg: 2, test: anySet, mask: unix.S_IFCHR | setID},
			rule{nr: unix.SYS_FCHMOD, ret: retEPERM, arg: 1, test: anySet, mask: setID},
			rule{nr: unix.SYS_FCHMODAT, ret: retEPERM, arg: 2, test: anySet, mask: setID},
			rule{nr: unix.SYS_FCHMODAT2, ret: retEPERM, arg: 2, test: anySet, mask: setID})
		rules = append(rules, archMknod...)
	}
	if caps&tool.Network == 0 {
		// A unix stream socketpair(2) stays: connected to itself, it
		// reaches nothing outside the process. A datagram one could send
		// to any unix socket by its path, or, disconnected, be bound to a
		// name in the host's abstract namespace. A pair of another family
		// is a socket of that family (TIPC makes them, in the host's
		// network namespace), and asking for one loads the family's
		// module where it is not loaded.
		deny(unix.SYS_SOCKET, unix.SYS_BIND, unix.SYS_CONNECT, unix.SYS_LISTEN)
		rules = append(rules,
			rule{nr: unix.SYS_SOCKETPAIR, ret: retEPERM, arg: 0, test: notEqual, mask: ^uint32(0), value: unix.AF_UNIX},
			rule{nr: unix.SYS_SOCKETPAIR, ret: retEPERM, arg: 1, test: anySet, mask: sockTypeNotStream})
		if caps&tool.Exec == 0 {
			// Without exec, no pair at all: what a socket holds queued is
			// kernel memory the limit does not count, as much as its send
			// buffer, which the socket may grow to twice net.core.wmem_max
			// (a tool held 8 GiB in 511 pairs under a 64 MiB limit where
			// it is 4 MiB). Neither the Go runtime nor its standard
			// library makes pairs; the programs of a tool with exec may.
			deny(unix.SYS_SOCKETPAIR)
		}
	} else {
		// The network is reached over IPv4 and IPv6, and its interfaces
		// read with NETLINK_ROUTE (net.Interfaces); no socket of another
		// family is made. A unix socket by its path is a daemon's door
		// (docker.sock is root on the machine), and Landlock before ABI
		// 9 does not see a connect by path: a tool with network
		// connected to one outside its workspace. The other families
		// reach the hypervisor's services (vsock), the kernel's crypto
		// (AF_ALG) or the host's sockets (NETLINK_SOCK_DIAG), and asking
		// for one loads its module. Unix stream pairs stay, connected to
		// themselves; a datagram pair could send to a socket by its path.
		//
		// Of IPv4 and IPv6, only protocols built into the kernel are
		// asked for: the family's default (0), TCP, UDP, ICMP
		// (ping's datagram sockets) and MPTCP (Go's listeners ask for it
		// first, and fall back to TCP on any error). Asking for another
		// (SCTP, DCCP, L2TP) loads its module where it is not loaded, for
		// any user: code of the kernel's that the machine did not run
		// before, where its bugs have been.
		//
		// Nor a socket of a type but stream, datagram and raw (which the
		// kernel gives only with CAP_NET_RAW): the kernel makes an IPv4
		// socket of type SOCK_PACKET a packet socket, loading af_packet
		// where it is a module not loaded, and for one of a type IPv4 has
		// no protocol for (SOCK_SEQPACKET, SOCK_RDM, SOCK_DCCP) it looks
		// for a module, running modprobe as root, at each call. Every
		// other type has a bit of sockTypeOther.
		rules = append(rules,
			rule{nr: unix.SYS_SOCKET, ret: retEPERM, arg: 1, test: anySet, mask: sockTypeOther})
		for _, family := range []uint32{unix.AF_INET, unix.AF_INET6} {
			for _, proto := range []uint32{0, unix.IPPROTO_TCP, unix.IPPROTO_UDP, unix.IPPROTO_ICMP, unix.IPPROTO_ICMPV6, unix.IPPROTO_MPTCP} {
				rules = append(rules, rule{nr: unix.SYS_SOCKET, ret: retAllow, arg: 0, test: equal, mask: all, value: family,
					also: &argCond{arg: 2, test: equal, mask: all, value: proto}})
			}
		}
		rules = append(rules,
			rule{nr: unix.SYS_SOCKET, ret: retAllow, arg: 0, test: equal, mask: all, value: unix.AF_NETLINK,
				also: &argCond{arg: 2, test: equal, mask: all, value: unix.NETLINK_ROUTE}},
			rule{nr: unix.SYS_SOCKET, ret: retEPERM},
			rule{nr: unix.SYS_SOCKETPAIR, ret: retEPERM, arg: 0, test: notEqual, mask: all, value: unix.AF_UNIX},
			rule{nr: unix.SYS_SOCKETPAIR, ret: retEPERM, arg: 1, test: anySet, mask: sockTypeNotStream})
		// No socket shares the port of another's (SO_REUSEPORT): the
		// kernel lets a socket join the port of a listener that set it
		// when both are of the same user, the worker's being the agent's
		// (for root, that of the daemons that listen so: nginx, haproxy,
		// unbound), and spreads the connections or datagrams to the port
		// among them. A tool with network joined the port of such a
		// listener and took 27 of the 64 connections meant for it, with
		// what their clients sent. Go's net never sets it; a program
		// that does gets EPERM.
		//
		// Nor zerocopy sends (SO_ZEROCOPY, without which MSG_ZEROCOPY
		// copies): what such a send queues is pinned, and the kernel
		// counts it against the locked memory of the user (its
		// user_struct's locked_vm), every process of the user together,
		// as it does io_uring's registered buffers and perf's. A tool
		// with network sent on loopback connections whose peers never
		// read and pinned 7,279,616 bytes, all of its user's 8 MiB, kept
		// across calls, and another worker's zerocopy send was refused
		// before a byte, as would be every program of the user without
		// CAP_IPC_LOCK. Go's net never sets it.
		for _, opt := range []uint32{unix.SO_REUSEPORT, unix.SO_ZEROCOPY} {
			rules = append(rules,
				rule{nr: unix.SYS_SETSOCKOPT, ret: retEPERM, arg: 2, test: equal, mask: all, value: opt,
					also: &argCond{arg: 1, test: equal, mask: all, value: unix.SOL_SOCKET}})
		}
		// Nor IPv6 flow labels (IPV6_FLOWLABEL_MGR): the kernel counts
		// them for the whole machine, 4,096 whatever the network
		// namespace, refuses them to every process without
		// CAP_NET_ADMIN once three quarters are taken, and keeps each
		// for up to 150 s after its socket closes. A tool with network
		// took 2,049 on 96 sockets, and another worker was then refused
		// all but one on each socket; on sockets closed as soon as they
		// were full it took every label left, and another worker's first
		// was refused (ENOBUFS), as would be every program of the
		// machine's, after the worker ended too. Go's net never asks for
		// one.
		rules = append(rules,
			rule{nr: unix.SYS_SETSOCKOPT, ret: retEPERM, arg: 2, test: equal, mask: all, value: ipv6FlowlabelMgr,
				also: &argCond{arg: 1, test: equal, mask: all, value: unix.IPPROTO_IPV6}})
		// The end of a unix pair may be bound to a name in the abstract
		// namespace of the worker's network namespace, the machine's: a
		// tool with network took a name and kept it, and the program
		// that binds it (an X server's @/tmp/.X11-unix/X0, a container
		// shim's) failed with EADDRINUSE while the worker lived.
		// Landlock's scope sees connections, not names. Without exec, no
		// pair: neither the Go runtime nor its standard library makes
		// one. With exec, whose programs may (Python's asyncio does), a
		// bind takes the length of an IPv4 (16), IPv6 (28) or netlink
		// (12) address, a larger one (sockaddr_storage, 128), or that of
		// an unnamed unix address (2: the kernel picks the name); a unix
		// name is 110 bytes at most, and only those 9, 13 or 25 bytes
		// long pass.
		if caps&tool.Exec == 0 {
			deny(unix.SYS_SOCKETPAIR)
		} else {
			for _, n := range []uint32{2, unix.SizeofSockaddrNetlink, unix.SizeofSockaddrInet4, unix.SizeofSockaddrInet6} {
				rules = append(rules, rule{nr: unix.SYS_BIND, ret: retAllow, arg: 2, test: equal, mask: all, value: n})
			}
			rules = append(rules, rule{nr: unix.SYS_BIND, ret: retEPERM, arg: 2, test: equal, mask: ^uint32(unixAddrMax), value: 0})
		}
	}
	return rules
}

// filterProgram assembles rules into a program for the audit
// architecture arch: a system call of any other architecture (a 32-bit
// one made from a 64-bit process, x32) is denied whole, since its
// numbers mean other calls.
func filterProgram(arch uint32, rules []rule) ([]bpf.RawInstruction, error) {
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: arch, SkipTrue: 1},
		bpf.RetConstant{Val: retEPERM},
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
	if arch == unix.AUDIT_ARCH_X86_64 {
		// x32 system calls carry this bit; none is allowed.
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: 0x40000000, SkipFalse: 1},
			bpf.RetConstant{Val: retEPERM})
	}
	for _, r := range rules {
		if r.test == always {
			prog = append(prog,
				bpf.JumpIf{Cond: bpf.JumpEqual, Val: r.nr, SkipFalse: 1},
				bpf.RetConstant{Val: r.ret})
			continue
		}
		// The second test, if any, then the first, which skips it when
		// it fails: each that fails skips to the reload below.
		var second []bpf.Instruction
		if c := r.also; c != nil {
			t, err := testArg(*c, 1)
			if err != nil {
				return nil, fmt.Errorf("seccomp rule for system call %d: %w", r.nr, err)
			}
			second = append([]bpf.Instruction{bpf.LoadAbsolute{Off: uint32(offArgs + 8*c.arg), Size: 4}}, t...)
		}
		first, err := testArg(argCond{arg: r.arg, test: r.test, mask: r.mask, value: r.value}, uint8(len(second)+1))
		if err != nil {
			return nil, fmt.Errorf("seccomp rule for system call %d: %w", r.nr, err)
		}
		test := append(first, second...)
		// Not this call: skip the instructions that test its arguments.
		// Else load the argument, answer, or reload the number and go
		// on.
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: r.nr, SkipFalse: uint8(len(test) + 3)},
			bpf.LoadAbsolute{Off: uint32(offArgs + 8*r.arg), Size: 4})
		prog = append(prog, test...)
		prog = append(prog,
			bpf.RetConstant{Val: r.ret},
			bpf.LoadAbsolute{Off: offNr, Size: 4})
	}
	prog = append(prog, bpf.RetConstant{Val: retAllow})
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, fmt.Errorf("assemble the seccomp filter: %w", err)
	}
	return raw, nil
}

// testArg is the test of c on the argument in the accumulator: when it
// fails, it skips the skip instructions after it.
func testArg(c argCond, skip uint8) ([]bpf.Instruction, error) {
	switch c.test {
	case anySet:
		return []bpf.Instruction{bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: c.mask, SkipFalse: skip}}, nil
	case noneSet:
		return []bpf.Instruction{bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: c.mask, SkipTrue: skip}}, nil
	case equal:
		return []bpf.Instruction{
			bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: c.mask},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: c.value, SkipFalse: skip}}, nil
	case notEqual:
		return []bpf.Instruction{
			bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: c.mask},
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: c.value, SkipFalse: skip}}, nil
	}
	return nil, fmt.Errorf("unknown test %d", c.test)
}

// seccompSupported reports whether the kernel filters system calls with
// seccomp and this architecture has a filter.
func seccompSupported() bool {
	if nativeArch == 0 {
		return false
	}
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	return err == nil
}

// loadFilter installs the seccomp filter for caps on every thread of the
// worker (SECCOMP_FILTER_FLAG_TSYNC), with no_new_privs, which the kernel
// sets on every thread it synchronises.
func loadFilter(caps tool.Capability) error {
	if nativeArch == 0 {
		return errors.New("no seccomp filter for " + runtime.GOARCH)
	}
	raw, err := filterProgram(nativeArch, filterRules(caps))
	if err != nil {
		return err
	}
	return installFilter(raw)
}

// installFilter installs the program raw on every thread, with
// no_new_privs.
func installFilter(raw []bpf.RawInstruction) error {
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %w", errno)
	}
	if r != 0 {
		// With TSYNC, a positive answer is a thread that could not be
		// synchronised.
		return fmt.Errorf("seccomp: thread %d could not be synchronised", r)
	}
	return nil
}
