package audit

import (
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// The classification: the one table that decides which capability a path
// to the operating system gives. A path is classified by the nearest
// classified function on it: a function rule, a flag- or number-sensitive
// call, or the rule of the function's package (which applies only to the
// functions of that package that reach the operating system at all).
// Anything that reaches code without a Go body (assembly, a linkname
// declaration, cgo) and is not classified counts as Unsafe: the audit
// fails closed. TestStdClassified walks the standard library and fails
// when a function there reaches an unclassified boundary.

// safe marks a rule that grants nothing: the path stops there.
const safe tool.Capability = 0

// pkgRules classify packages. For a package with a body it applies to the
// package's functions that reach the operating system; for a function
// without a body (assembly, linkname) it is that function's class. A
// package is safe here only with the reason it grants nothing a tool could
// not do without it: what its functions are given (a writer, a function
// value, a descriptor) is classified where it was made.
//
// A rule with capabilities is added to what the function reaches (files,
// the environment and programs: ruleAdds), not put in its place:
// (net/http.Dir).Open is network and read_files, and
// crypto/tls.LoadX509KeyPair reads its files (probes httpdir, servefile,
// tlskeypair, multipart). The reads these packages make on their own, the
// same for every program (the resolver's configuration, the system's
// roots, the proxy variables), are classified by name in funcRules, as
// what their package's rule is; anything else they reach counts. A safe
// rule (the runtime, sync, internal/poll…) and those of pkgMasks still
// stand for all their functions reach.
var pkgRules = map[string]tool.Capability{
	"os/exec":     tool.Exec,
	"net":         tool.Network,
	"net/http":    tool.Network,
	"net/smtp":    tool.Network,
	"net/rpc":     tool.Network | tool.Unsafe,
	"log/syslog":  tool.Network,
	"crypto/tls":  tool.Network,
	"os/user":     tool.Env | tool.ReadFiles,
	"plugin":      tool.Unsafe,
	"runtime/cgo": tool.Unsafe,
	// Reads and writes descriptors opened elsewhere; the opener is
	// classified.
	"internal/poll": safe,
	// The Go runtime and its internal packages act on the process's own
	// memory, goroutines and signals, not on the machine; the few
	// functions that read the environment or files are classified by
	// name (runtime.GOROOT, os.runtime_args, syscall.runtime_envs).
	"runtime":                        safe,
	"internal/runtime/atomic":        safe,
	"internal/runtime/sys":           safe,
	"internal/runtime/maps":          safe,
	"internal/runtime/math":          safe,
	"internal/runtime/strconv":       safe,
	"internal/runtime/exithook":      safe,
	"internal/runtime/cgroup":        safe, // the runtime's reading of its own cgroup limit at start
	"internal/runtime/gc":            safe,
	"internal/runtime/gc/scan":       safe,
	"internal/runtime/startlinetest": safe,
	"internal/runtime/syscall":       safe, // the runtime's own system calls (mmap, futex)
	"internal/runtime/syscall/linux": safe,
	"internal/runtime/cgobench":      safe, // a benchmark helper with no callers outside the runtime's tests
	// Synchronisation of memory: they call only the functions they are
	// given, whose values their makers have edges to.
	"sync":          safe,
	"sync/atomic":   safe,
	"internal/sync": safe,
	// Computation on memory (many in assembly).
	"internal/bytealg":   safe,
	"internal/cpu":       safe, // reads CPU feature flags (cpuid)
	"internal/abi":       safe,
	"internal/byteorder": safe,
	"math":               safe,
	"math/big":           safe,
	"math/bits":          safe,
	"hash/crc32":         safe,
	"hash/maphash":       safe,
	"maps":               safe,
	"iter":               safe, // coroutines of the runtime
	"unique":             safe,
	"weak":               safe,
	"internal/weak":      safe,
	// Reads types; it calls no method by name (reflect's own calls are
	// classified by name below).
	"internal/reflectlite": safe,
	// Reads the runtime's copy of $GODEBUG, the same for every program.
	"internal/godebug": safe,
	// Randomness: getrandom(2) and the runtime's generator.
	"internal/chacha8rand":          safe,
	"crypto/internal/sysrand":       safe,
	"internal/synctest":             safe, // fake time for a bubble of goroutines
	"internal/race":                 safe, // instrumentation hooks, empty without -race
	"internal/msan":                 safe,
	"internal/asan":                 safe,
	"crypto/internal/fips140/check": safe, // verifies the program's own code in memory
	// Profiles and traces go to the writer its caller gives, which is
	// classified where it was made; runtime/debug's SetCrashOutput takes
	// a file the caller opened (WriteHeapDump, which takes a
	// descriptor's number, is classified by name).
	"runtime/pprof":   safe,
	"runtime/trace":   safe,
	"runtime/debug":   safe,
	"runtime/metrics": safe,
	// The zone database embedded in the program.
	"time/tzdata":      safe,
	"internal/testpty": tool.Unsafe, // cgo
	// Not safe, and so not listed: testing (MainStart writes profiles
	// wherever -test.* flags say, T.TempDir, T.Setenv, T.Chdir),
	// testing/cryptotest, runtime/coverage and internal/coverage/cfile
	// (write coverage files to $GOCOVERDIR), go/internal/srcimporter
	// (reads source files), reflect (its functions with a body are
	// analysed, so Value.Methods reaches Value.Method; see asmPkgRules).
}

// ruleAdds are the capabilities a package's rule (not a safe one, nor one
// of pkgMasks) adds to its own when its functions reach them: files, the
// environment, programs. Unsafe stays the rule's: in these packages it is
// their own system calls (the libc trampolines of darwin, the system
// calls of windows, the cgo resolver, the cgo lookups of os/user) and a
// log.Fatalf that checks the HTTP connection pool's consistency, which
// the rule classifies.
const ruleAdds = tool.Exec | tool.WriteFiles | tool.ReadFiles | tool.Env

// pkgMasks are the packages with capabilities whose rule stands for all
// their functions reach, as a safe rule does: a program that os/exec runs
// can do whatever the worker may (read the environment it inherits, read
// and write files), so what os/exec does around it (the environment and
// $PATH it passes, /dev/null for the standard streams it leaves unset)
// is exec.
var pkgMasks = map[string]bool{"os/exec": true}

// asmPkgRules classify the functions without a Go body (the runtime's
// linkname implementations) of packages whose functions with a body are
// analysed as any other.
var asmPkgRules = map[string]tool.Capability{
	"reflect":                 safe, // memory moves and type lookups in the runtime; NewAt, Call and MakeFunc are classified by name
	"testing":                 safe, // runtime hooks (runtime_Semacquire…); the package's effects are through its bodies
	"testing/synctest":        safe,
	"internal/coverage/cfile": safe, // reads the runtime's counters; the files it writes are through os
	"runtime/coverage":        safe,
	"testing/cryptotest":      safe, // linkname hooks into crypto/internal (the test reader, parallel checks)
	"go/internal/srcimporter": safe, // setUsesCgo: a flag of go/build
}

// asmPrefixRules classify, by path prefix for the standard library's
// and by path outside it (the genuine golang.org/x/sys only, graph.ruled),
// the functions without a Go body of packages of assembly kernels (their functions with a body are
// analysed as any other).
var asmPrefixRules = []struct {
	prefix string
	// std is set for a rule of the standard library's packages, which
	// applies only to packages the go command lists as such: a module
	// may have a path that begins the same (crypto/x, replaced by a
	// directory). The others apply only outside the standard library.
	std  bool
	caps tool.Capability
}{
	{"crypto/", true, safe},
	{"vendor/golang.org/x/crypto/", true, safe},
	{"vendor/golang.org/x/sys/cpu", true, safe},
	{"golang.org/x/sys/cpu", false, safe},
}

// funcRules classify single functions, by their SSA name (origin for
// instances). They win over their package's rule.
var funcRules = map[string]tool.Capability{
	// Programs.
	"os.StartProcess":      tool.Exec,
	"(*os.Process).Kill":   tool.Exec,
	"(*os.Process).Signal": tool.Exec,
	"syscall.StartProcess": tool.Exec,
	"syscall.ForkExec":     tool.Exec,
	"syscall.Exec":         tool.Exec,
	"syscall.Kill":         tool.Exec,
	// A descriptor's metadata and mode, whatever it was opened for.
	"(*os.File).Chmod": tool.WriteFiles, // fchmod(2) works on a descriptor opened read-only
	"(*os.File).Chown": tool.WriteFiles,
	"os.Chdir":         tool.Env,
	"(*os.File).Chdir": tool.Env,
	// Reads and writes through a descriptor: the descriptor grants
	// them, so whatever opened it is classified (an open by its flags,
	// os.NewFile of an inherited number, os.Stdin, os.Stdout and
	// os.Stderr below, a pipe or socket by its package), and the sandbox
	// checks access when the file is opened, not at each read or write.
	"(*os.File).Write":        safe,
	"(*os.File).WriteAt":      safe,
	"(*os.File).WriteString":  safe,
	"(*os.File).ReadFrom":     safe,
	"(*os.File).Truncate":     safe, // ftruncate(2) needs a descriptor open for writing
	"(*os.File).Sync":         safe,
	"(*os.File).Read":         safe,
	"(*os.File).ReadAt":       safe,
	"(*os.File).WriteTo":      safe,
	"(*os.File).ReadDir":      safe, // getdents(2) on a directory opened read-only, which is classified
	"(*os.File).Readdir":      safe,
	"(*os.File).Readdirnames": safe,
	"(*os.File).Stat":         safe,
	"(*os.File).Seek":         safe,
	"(*os.File).Close":        safe,
	// The descriptors a tool did not open: those it inherits from the
	// agent (whose standard output may be the protocol's channel).
	"os.NewFile":       tool.ReadFiles | tool.WriteFiles,
	"var os.Stdin":     tool.ReadFiles,
	"var os.Stdout":    tool.WriteFiles,
	"var os.Stderr":    tool.WriteFiles,
	"os.Getwd":         tool.Env | tool.ReadFiles,
	"os.Hostname":      tool.Env | tool.ReadFiles,
	"os.Executable":    tool.ReadFiles,
	"os.UserHomeDir":   tool.Env,
	"os.UserCacheDir":  tool.Env,
	"os.UserConfigDir": tool.Env,
	"os.TempDir":       tool.Env,
	// The environment.
	"syscall.Getenv":       tool.Env,
	"syscall.Setenv":       tool.Env,
	"syscall.Unsetenv":     tool.Env,
	"syscall.Clearenv":     tool.Env,
	"syscall.Environ":      tool.Env,
	"syscall.runtime_envs": tool.Env,
	"os.runtime_args":      tool.Env,
	"runtime.GOROOT":       tool.Env,
	// Descriptors opened elsewhere: the opener is classified.
	"syscall.Close":                       safe,
	"syscall.SetNonblock":                 safe,
	"syscall.CloseOnExec":                 safe,
	"syscall.Getpagesize":                 safe,
	"syscall.Getpid":                      safe,
	"syscall.Getuid":                      safe,
	"syscall.Geteuid":                     safe,
	"syscall.Getgid":                      safe,
	"syscall.Getegid":                     safe,
	"syscall.Getppid":                     safe,
	"syscall.Gettimeofday":                safe,
	"syscall.runtime_doAllThreadsSyscall": tool.Unsafe,
	// Reflection by name can call any method of any value.
	"(reflect.Value).Call":         tool.Unsafe,
	"(reflect.Value).CallSlice":    tool.Unsafe,
	"(reflect.Value).Method":       tool.Unsafe,
	"(reflect.Value).MethodByName": tool.Unsafe,
	"(reflect.Type).Method":        tool.Unsafe,
	"(reflect.Type).MethodByName":  tool.Unsafe,
	"reflect.MakeFunc":             tool.Unsafe,
	"reflect.NewAt":                tool.Unsafe,
	// A slice of any length at any address, which Value.UnsafePointer
	// gives with no conversion the audit sees (probe reflectsliceat).
	"reflect.SliceAt":         tool.Unsafe,
	"(reflect.Value).Methods": tool.Unsafe, // Go 1.26: each method as a callable Value
	"(reflect.Type).Methods":  tool.Unsafe,
	// A dump of the heap into a descriptor by its number, one the tool
	// need not have opened (the agent's standard output, a file it holds
	// open): runtime/debug is otherwise safe (probe heapdump).
	"runtime/debug.WriteHeapDump": tool.WriteFiles,
	// A function value of syscall.Mmap, whose calls mmapProtArg does not
	// classify (its mapper's func field is not followed): any mapping.
	"syscall.Mmap": tool.ReadFiles | tool.WriteFiles | tool.Unsafe,
	// Tests' helpers that change the process or write files.
	"testing.MainStart": tool.Unsafe, // runs tests and writes profiles wherever -test.* flags say
	// Packages that load code or escape the audit.
	"plugin.Open": tool.Unsafe,
	// The standard library's own linkname stubs into the runtime.
	"os.runtime_beforeExit":            safe,
	"os.sigpipe":                       safe,
	"os.checkClonePidfd":               tool.Exec,
	"os/signal.signal_enable":          safe,
	"os/signal.signal_disable":         safe,
	"os/signal.signal_ignore":          safe,
	"os/signal.signal_ignored":         safe,
	"os/signal.signal_recv":            safe,
	"os/signal.signalWaitUntilIdle":    safe,
	"net.runtime_rand":                 safe,
	"syscall.runtime_BeforeFork":       tool.Exec,
	"syscall.runtime_AfterFork":        tool.Exec,
	"syscall.runtime_AfterForkInChild": tool.Exec,
	"syscall.runtime_BeforeExec":       tool.Exec,
	"syscall.runtime_AfterExec":        tool.Exec,
	"syscall.runtime_entersyscall":     safe,
	"syscall.runtime_exitsyscall":      safe,
	"syscall.runtimeSetenv":            tool.Env,
	"syscall.runtimeUnsetenv":          tool.Env,
	"syscall.cgocaller":                tool.Unsafe,
	"syscall.gettimeofday":             safe,
	"syscall.rawVforkSyscall":          tool.Exec,
	"syscall.rawSyscallNoError":        tool.Unsafe,
	"syscall.Exit":                     tool.Unsafe, // ends the agent
	"syscall.hasWaitingReaders":        safe,
	"os.ignoreSIGSYS":                  safe,
	"os.restoreSIGSYS":                 safe,
	"os.runtime_rand":                  safe,
	"mime/multipart.readMIMEHeader":    safe,
	"net/http.readMIMEHeader":          safe, // Go 1.27: a link to net/textproto, which reads a buffer
	"math/rand.runtime_rand":           safe,
	"math/rand/v2.runtime_rand":        safe,
	// The clock and timers (zone files are read through syscall.Open,
	// classified by its flags).
	// The process's local zone, read once from $TZ and /etc/localtime
	// the first time any code uses time.Local: the same for every
	// program, not something a tool chooses. time.LoadLocation is
	// classified through its reads.
	"time.initLocal": safe,
	// The system's MIME types, read once from /etc/mime.types and the
	// like the first time any code asks mime for a type (mime's init
	// function puts it in mime.osInitMime): the same for every program,
	// as time.initLocal.
	"mime.initMimeUnix":                   safe,
	"time.Sleep":                          safe,
	"time.newTimer":                       safe,
	"time.resetTimer":                     safe,
	"time.stopTimer":                      safe,
	"time.runtimeIsBubbled":               safe,
	"time.runtimeNano":                    safe,
	"time.runtimeNow":                     safe,
	"internal/syscall/unix.RecvfromInet4": tool.Network,
	"internal/syscall/unix.RecvfromInet6": tool.Network,
	"internal/syscall/unix.RecvmsgInet4":  tool.Network,
	"internal/syscall/unix.RecvmsgInet6":  tool.Network,
	"internal/syscall/unix.SendmsgNInet4": tool.Network,
	"internal/syscall/unix.SendmsgNInet6": tool.Network,
	"internal/syscall/unix.SendtoInet4":   tool.Network,
	"internal/syscall/unix.SendtoInet6":   tool.Network,
	"internal/syscall/unix.Utimensat":     tool.WriteFiles,
	"internal/syscall/unix.fcntl":         safe,
	"internal/syscall/unix.vgetrandom":    safe,
	// The reads of the packages with a capability rule (pkgRules) that
	// the standard library makes on its own, the same for every
	// program, and which a tool cannot point elsewhere: they count as
	// their package's rule, and nothing more. The sandbox lets every
	// worker read these files (sandbox.RuntimeReadPaths) and gives a
	// network worker the proxy and root variables (workerEnv).
	//
	// net: the resolver's configuration (/etc/resolv.conf,
	// /etc/hosts, /etc/nsswitch.conf, /etc/services, /etc/protocols, the
	// paths are constants), its choice of resolver by $LOCALDOMAIN,
	// $RES_OPTIONS and $HOSTALIASES, the host's name for its default
	// search domain, the kernel's version (uname(2)) and limits
	// (getrlimit(2), /proc/sys/net/core/somaxconn) that size sockets and
	// threads. Interface.MulticastAddrs reads /proc/net/igmp, which no
	// rule covers: read_files.
	"net.dnsReadConfig":          tool.Network,
	"net.readHosts":              tool.Network,
	"net.parseNSSConfFile":       tool.Network,
	"net.readServices":           tool.Network,
	"var net.readProtocolsOnce":  safe,
	"net.initConfVal":            tool.Network,
	"var net.getHostname":        safe,
	"net.maxListenerBacklog":     tool.Network,
	"net.maxAckBacklog":          tool.Network,
	"net.initMPTCPavailable":     tool.Network,
	"net.concurrentThreadsLimit": tool.Network,
	// A unix listener removes, on Close, the socket file its Listen
	// made (bind(2) of a path, network), or the socket's own path after
	// SetUnlinkOnClose.
	"(*net.UnixListener).close": tool.Network,
	// net/http: $HTTP_PROXY, $HTTPS_PROXY, $NO_PROXY (ProxyFromEnvironment,
	// every Transport's default), network as before: the variables may
	// hold a proxy's password.
	"net/http.envProxyFunc": tool.Network,
	// Removes only the temporary files ReadForm made (FileHeader.tmpfile,
	// unexported), whose creation is classified: every HTTP server calls
	// it after a handler.
	"(*mime/multipart.Form).RemoveAll": safe,
	// crypto/x509: the system's roots, the files and directories of
	// root_linux.go (or $SSL_CERT_FILE, $SSL_CERT_DIR; the system's trust
	// store elsewhere), which every TLS client verifies against
	// (crypto/tls, through Certificate.Verify): SystemCertPool reaches
	// nothing.
	"crypto/x509.loadSystemRoots": safe,
	// log/syslog: each message carries the host's name and the program's
	// (os.Args[0]), sent to the syslog daemon.
	"log/syslog.Dial": tool.Network,
}

// reflectCallers are the packages of the standard library whose calls
// of methods and functions by reflection are not classified Unsafe,
// because the audit models what they call at their caller: text/template
// (and html/template through it) calls, by the names a template gives,
// the exported methods of the values its data holds and the functions of
// its FuncMap. The functions are values its caller made, an edge of the
// caller's (creation edges, and the results of a function made into an
// interface, see graph.funcValueEdges); the data's methods are added at
// each call of Execute (templateDataArg, graph.templateEdges), failing
// closed for data whose type the audit cannot see.
var reflectCallers = map[string]bool{"text/template": true}

// reflectCalls are the reflect functions that call by reflection.
var reflectCalls = map[string]bool{
	"(reflect.Value).Call":         true,
	"(reflect.Value).CallSlice":    true,
	"(reflect.Value).Method":       true,
	"(reflect.Value).MethodByName": true,
	"(reflect.Value).Seq":          true, // range over a function value of the data
	"(reflect.Value).Seq2":         true,
}

// templateDataArg lists the functions that execute a template, and the
// index of the data argument (the receiver is 0). Their method values,
// method expressions and promoted methods are recognised by the method
// they wrap (templateData), dynamic calls by signature
// (dynamicTemplateData).
var templateDataArg = map[string]int{
	"(*text/template.Template).Execute":         2,
	"(*text/template.Template).ExecuteTemplate": 3,
	"(*html/template.Template).Execute":         2,
	"(*html/template.Template).ExecuteTemplate": 3,
}

// sourceArg lists the functions that read a file unless they are given
// its text, and the index of the text argument, then of the mode: given
// a string or a []byte (made into an interface at the call, so never
// nil) and a constant mode without parser.Trace (which prints to the
// standard output), they read nothing, write nothing and call nothing of
// the program (go/format.Source parses its []byte this way).
var sourceArg = map[string][2]int{
	"go/parser.ParseFile":     {2, 3},
	"go/parser.ParseExprFrom": {2, 3},
}

// parserTrace is go/parser.Trace, the mode that prints a trace of the
// parse to the standard output.
const parserTrace = 1 << 3

// openFlagArg lists the functions whose call opens a file with flags,
// and the index of the flags argument: constant flags are classified by
// openCaps, computed ones are ReadFiles and WriteFiles.
var openFlagArg = map[string]int{
	"os.open":                      1, // the wrapper of syscall.Open every open of package os goes through
	"os.OpenFile":                  1,
	"(*os.Root).OpenFile":          2,
	"syscall.Open":                 1,
	"syscall.Openat":               2,
	"internal/syscall/unix.Openat": 2,
	"golang.org/x/sys/unix.Open":   1,
	"golang.org/x/sys/unix.Openat": 2,
}

// writeFlags are the open flags that create, change or remove (linux
// values, the same on every Unix Go supports for these bits' meaning is
// checked by TestOpenFlags).
const writeFlags = 0x1 | 0x2 | 0x40 | 0x200 | 0x400 // O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND

// openCaps classifies an open with constant flags as the sandbox checks
// it: O_RDONLY reads, O_WRONLY writes (with O_CREAT, O_TRUNC or O_APPEND
// or not), O_RDWR (or an O_RDONLY that creates or truncates) does both.
func openCaps(flags int64) tool.Capability {
	switch {
	case flags&writeFlags == 0:
		return tool.ReadFiles
	case flags&0x3 == 0x1: // O_WRONLY
		return tool.WriteFiles
	default:
		return tool.ReadFiles | tool.WriteFiles
	}
}

// rawSyscallFuncs are the raw system call entry points, with the index of
// the system call number argument: a constant number is classified by
// sysRules, a computed one is Unsafe.
var rawSyscallFuncs = map[string]int{
	"syscall.Syscall":                         0,
	"syscall.Syscall6":                        0,
	"syscall.RawSyscall":                      0,
	"syscall.RawSyscall6":                     0,
	"syscall.rawSyscallNoError":               0,
	"internal/runtime/syscall/linux.Syscall6": 0,
	"golang.org/x/sys/unix.Syscall":           0,
	"golang.org/x/sys/unix.Syscall6":          0,
	"golang.org/x/sys/unix.RawSyscall":        0,
	"golang.org/x/sys/unix.RawSyscall6":       0,
	"golang.org/x/sys/unix.SyscallNoError":    0,
	"golang.org/x/sys/unix.RawSyscallNoError": 0,
}

// sysRules classify system calls by the name of their SYS_ constant in
// package syscall, without the prefix. A number missing here is Unsafe.
var sysRules = map[string]tool.Capability{}

func init() {
	for _, r := range []struct {
		caps  tool.Capability
		names string
	}{
		{tool.Exec, "424 434 EXECVE EXECVEAT FORK VFORK CLONE CLONE3 KILL TKILL TGKILL PTRACE PIDFD_OPEN PIDFD_SEND_SIGNAL WAIT4 WAITID"},
		{tool.Network, "SOCKET SOCKETPAIR CONNECT BIND LISTEN ACCEPT ACCEPT4 SENDTO RECVFROM SENDMSG RECVMSG SENDMMSG RECVMMSG " +
			"SHUTDOWN GETSOCKOPT SETSOCKOPT GETSOCKNAME GETPEERNAME"},
		{tool.WriteFiles, "WRITE PWRITE64 WRITEV PWRITEV PWRITEV2 CREAT UNLINK UNLINKAT RMDIR MKDIR MKDIRAT MKNOD MKNODAT RENAME RENAMEAT RENAMEAT2 " +
			"LINK LINKAT SYMLINK SYMLINKAT CHMOD FCHMOD FCHMODAT FCHMODAT2 CHOWN FCHOWN FCHOWNAT LCHOWN TRUNCATE FTRUNCATE UTIMES UTIMENSAT FUTIMESAT UTIME " +
			"FSYNC FDATASYNC SYNC SYNCFS FALLOCATE SETXATTR LSETXATTR FSETXATTR REMOVEXATTR LREMOVEXATTR FREMOVEXATTR SYNC_FILE_RANGE 452"},
		// Copies between two descriptors by number read the source as
		// much as they write the destination, which may be a pipe the
		// tool made (probe fdsendfile).
		{tool.ReadFiles | tool.WriteFiles, "COPY_FILE_RANGE SENDFILE SPLICE TEE 326"},
		{tool.ReadFiles, "READ PREAD64 READV PREADV PREADV2 GETDENTS GETDENTS64 " +
			"GETXATTR LGETXATTR FGETXATTR LISTXATTR LLISTXATTR FLISTXATTR GETCWD OPEN_TREE INOTIFY_INIT INOTIFY_INIT1 INOTIFY_ADD_WATCH INOTIFY_RM_WATCH"},
		// A file's metadata: the sandbox (Landlock) restricts reading a
		// file's content and a directory's entries, not stat(2),
		// readlink(2) or access(2), which a worker may do whatever it
		// declares; so they need no capability here either, and
		// os.MkdirAll (a stat of each parent, then mkdir) is WriteFiles
		// alone, as the worker allows it. LSEEK moves in a descriptor
		// opened elsewhere.
		{safe, "STAT LSTAT FSTAT NEWFSTATAT FSTATAT STATX STATFS FSTATFS USTAT READLINK READLINKAT ACCESS FACCESSAT FACCESSAT2 439 LSEEK"},
		{tool.ReadFiles | tool.WriteFiles, "OPEN OPENAT OPENAT2 NAME_TO_HANDLE_AT OPEN_BY_HANDLE_AT"},
		{tool.Unsafe, "ACCT ADJTIMEX CAPSET IOPERM IOPL MOUNT PIVOT_ROOT REBOOT SETTIMEOFDAY SYSLOG UMOUNT2 UNSHARE SETNS " +
			"INIT_MODULE FINIT_MODULE DELETE_MODULE KEXEC_LOAD BPF PERF_EVENT_OPEN PROCESS_VM_WRITEV PROCESS_VM_READV"},
		{tool.Env, "SETFSUID SETFSGID SETPRIORITY CHDIR FCHDIR CHROOT UNAME SETHOSTNAME SETDOMAINNAME SETUID SETGID SETREUID SETREGID SETRESUID SETRESGID SETGROUPS SETPGID SETSID UMASK SETRLIMIT PRLIMIT64"},
		// A descriptor the tool did not open, by its number (the
		// agent's own files, its standard streams, its sockets), put
		// under a number dup(2) returns or dup2(2) and dup3(2) are given,
		// one the tool may hold as an *os.File it made (a pipe), whose
		// reads and writes are classified where it was opened: the
		// duplicate is as os.NewFile (probe fddup).
		{tool.ReadFiles | tool.WriteFiles, "DUP DUP2 DUP3"},
		{safe, "CLOSE FCNTL PIPE PIPE2 EPOLL_CREATE EPOLL_CREATE1 EPOLL_CTL EPOLL_WAIT EPOLL_PWAIT EVENTFD EVENTFD2 GETPID GETPPID GETTID GETUID GETEUID GETGID GETEGID GETGROUPS " +
			"GETPGID GETPGRP GETSID GETRLIMIT GETRUSAGE GETTIMEOFDAY TIME CLOCK_GETTIME SCHED_YIELD NANOSLEEP FUTEX MMAP MUNMAP MPROTECT MADVISE GETRANDOM " +
			"SCHED_GETAFFINITY GETCPU GETPRIORITY TIMES SYSINFO RT_SIGPROCMASK RT_SIGACTION SIGALTSTACK EXIT EXIT_GROUP FLOCK POLL PPOLL SELECT PSELECT6 " +
			"ARCH_PRCTL PRCTL CAPGET GETPGID MLOCK MLOCKALL MUNLOCK MUNLOCKALL PAUSE 318"},
		// Numbers below are those package syscall has no constant
		// for (linux/amd64): getrandom 318, pidfd_send_signal 424,
		// pidfd_open 434, copy_file_range 326, faccessat2 439,
		// fchmodat2 452.
	} {
		for _, n := range strings.Fields(r.names) {
			sysRules[n] = r.caps
		}
	}
}

// fcntlCmdArg lists the functions that call fcntl(2) with the command
// they are given, and the index of the command argument: a call is
// classified by it (graph.fcntlTarget), as a raw fcntl is.
var fcntlCmdArg = map[string]int{
	"syscall.fcntl":                  1,
	"internal/syscall/unix.Fcntl":    1,
	"golang.org/x/sys/unix.fcntl":    1,
	"golang.org/x/sys/unix.FcntlInt": 1,
}

// fcntlDup holds the fcntl(2) commands that duplicate a descriptor
// (linux values, checked by TestFcntlDup): F_DUPFD and F_DUPFD_CLOEXEC.
var fcntlDup = map[int64]bool{0x0: true, 0x406: true}

// mmapProtArg lists the functions that call mmap(2) with the protection
// and flags they are given, and the index of the protection argument
// (the flags follow it): a call is classified by them
// (graph.mmapTarget), as a raw mmap is.
var mmapProtArg = map[string]int{
	"syscall.Mmap":               3,
	"golang.org/x/sys/unix.Mmap": 3,
}

// The bits of mmap(2)'s protection and flags that mmapTarget reads
// (linux values, checked by TestMmapBits).
const (
	protWrite   = 0x2
	mmapType    = 0x3 // MAP_SHARED, MAP_PRIVATE, MAP_SHARED_VALIDATE
	mmapPrivate = 0x2
	mmapFixed   = 0x10 | 0x100000 // MAP_FIXED, MAP_FIXED_NOREPLACE
	mmapAnon    = 0x20
)

// ioctlSafe names the ioctl(2) requests that only read the state of a
// descriptor (linux values; TestIoctlSafe checks them against package
// syscall); any other request is Unsafe (TIOCSTI writes into the
// terminal's input, TIOCSCTTY takes it over).
var ioctlSafe = map[int64]string{
	0x5401: "TCGETS",
	0x5413: "TIOCGWINSZ",
	0x541B: "FIONREAD",
	0x540F: "TIOCGPGRP",
	0x5450: "FIONCLEX",
	0x5451: "FIOCLEX",
	0x5421: "FIONBIO",
}

// pkgRule returns the rule of package path, if it has one; std says
// whether the go command lists path as the standard library's. pkgRules
// name packages of the standard library, and a package outside it with
// one of their paths (a module's, where the release has no such package)
// is not one of them.
func pkgRule(path string, std bool) (tool.Capability, bool) {
	if !std {
		return 0, false
	}
	c, ok := pkgRules[path]
	return c, ok
}

// asmRule returns the rule for a function without a Go body in package
// path, if there is one; std is as for pkgRule. A function without a
// body outside the standard library that no rule names is Unsafe.
func asmRule(path string, std bool) (tool.Capability, bool) {
	if c, ok := pkgRule(path, std); ok {
		return c, true
	}
	if c, ok := asmPkgRules[path]; ok && std {
		return c, true
	}
	for _, r := range asmPrefixRules {
		// A rule outside the standard library names one package:
		// golang.org/x/sys/cpuhack is not golang.org/x/sys/cpu.
		if r.std == std && (std && strings.HasPrefix(path, r.prefix) || path == r.prefix) {
			return r.caps, true
		}
	}
	return 0, false
}
