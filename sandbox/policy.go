package sandbox

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// RuntimeReadPaths are the only files and directories a worker may read
// when its tools do not declare tool.ReadFiles: what the Go runtime and
// the standard library read on their own. This is the one list; paths
// missing on a machine are skipped. The worker's own executable is added
// to it at run time.
var RuntimeReadPaths = []string{
	// time: the local zone and the zone database.
	"/etc/localtime",
	"/etc/timezone",
	"/usr/share/zoneinfo",
	"/usr/lib/zoneinfo",
	"/usr/share/lib/zoneinfo",
	// crypto/x509: system roots (root_linux.go's files and directories).
	"/etc/ssl/certs",
	"/etc/ssl/cert.pem",
	"/etc/pki/tls/certs",
	"/etc/pki/tls/cacert.pem",
	"/etc/pki/ca-trust/extracted/pem",
	"/etc/ca-certificates",
	"/usr/share/ca-certificates",
	"/usr/local/share/ca-certificates",
	"/etc/certs",
	// net: the resolver's configuration.
	"/etc/resolv.conf",
	"/etc/hosts",
	"/etc/nsswitch.conf",
	"/etc/host.conf",
	"/etc/services",
	"/etc/protocols",
	"/etc/gai.conf",
	// devices every Go program may open.
	"/dev/null",
	"/dev/urandom",
	"/dev/random",
}

// ExecReadPaths are the directories a worker whose tools declare
// tool.Exec may read and execute from even without tool.ReadFiles: the
// programs and the libraries and configuration the dynamic loader reads.
var ExecReadPaths = []string{"/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/opt"}

// vcsDirs stay read-only in the workspace of a tool with
// tool.WriteFiles: a hook planted there would run, unconfined, at the
// user's next commit.
var vcsDirs = []string{".git", ".hg", ".svn"}

// deniedEnv are never passed to a worker, whatever the configuration.
var deniedEnv = []string{"LLM_API_KEY"}

// baseEnv are passed to every worker from the parent's environment: they
// steer the Go runtime and the standard library, not tools.
var baseEnv = []string{"TZ", "GODEBUG", "GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GOTRACEBACK", "LANG", "LC_ALL"}

// workerEnv is the environment of a worker for caps: the base variables,
// GOMAXPROCS=1 unless they set it, TMPDIR set to tempDir, PATH and HOME
// when caps has Exec, the proxy and TLS root variables when it has
// Network, and the named tool variables when it has Env. Nothing in
// deniedEnv is ever included.
//
// A worker runs one call at a time, and many run side by side: with one
// processor for its goroutines, handing a request to the tool's goroutine
// and its answer back does not wake a second thread on another core,
// which on a virtual machine costs more than the call (see
// BENCHMARKS.md). A tool that wants more is given them by GOMAXPROCS in
// the agent's environment.
func workerEnv(environ []string, names, pass []string, caps tool.Capability, tempDir string) []string {
	keep := slices.Concat(baseEnv, pass)
	if caps&tool.Exec != 0 {
		keep = append(keep, "PATH", "HOME")
	}
	if caps&tool.Network != 0 {
		// net/http's proxy and crypto/x509's roots.
		keep = append(keep, "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR")
	}
	if caps&tool.Env != 0 {
		keep = append(keep, names...)
	}
	var env []string
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "TMPDIR" || slices.Contains(deniedEnv, k) || !slices.Contains(keep, k) {
			continue
		}
		env = append(env, kv)
	}
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GOMAXPROCS=") }) {
		env = append(env, "GOMAXPROCS=1")
	}
	if tempDir != "" {
		env = append(env, "TMPDIR="+tempDir)
	}
	return env
}

// boundingEnv is the variable by which the pool asks a worker to empty
// its bounding set before the Go runtime starts (on Linux, in builds
// with cgo: see bounding_cgo_linux.go). The worker takes it out of its
// environment.
const boundingEnv = "TOOLREG_SANDBOX_BOUNDING_SET"

// assignedEnv is what a worker's assignment adds for caps to the
// environment every worker starts with (workerEnv for no capabilities).
func assignedEnv(environ []string, names, pass []string, caps tool.Capability) []string {
	base := workerEnv(environ, nil, pass, 0, "")
	var add []string
	for _, kv := range workerEnv(environ, names, pass, caps, "") {
		if !slices.Contains(base, kv) {
			add = append(add, kv)
		}
	}
	return add
}

// Limits bound what one worker process may use. Zero fields take the
// defaults; a negative field lifts that limit.
type Limits struct {
	// Memory bounds the worker's data (RLIMIT_DATA: heap and other
	// private writable mappings), per process; 1 GiB when zero. Not set
	// in race-detector builds, whose shadow memory it would count.
	Memory int64
	// Files bounds the open descriptors (RLIMIT_NOFILE); 1,024 when zero.
	Files int64
	// FileSize bounds the size of a file the worker writes
	// (RLIMIT_FSIZE); a write past it fails with EFBIG. 1 GiB when zero.
	FileSize int64
	// Processes bounds the processes and threads of a worker, its own
	// and those of the programs its tool starts with tool.Exec
	// (RLIMIT_NPROC, which the kernel counts in the worker's own user
	// namespace); a fork past it fails with EAGAIN, and a worker whose
	// runtime cannot start a thread dies. 256 when zero. It holds only
	// in namespaces of the worker's own, and for root, whom the kernel
	// exempts from RLIMIT_NPROC, only from Linux 6.14, where the worker
	// bounds its PID namespace's process ids instead, to the limit and
	// the 300 ids the namespace gives first:
	// Enforcement.Missing says when it does not: for a tool with
	// tool.Exec, and without namespaces for every tool (its threads).
	Processes int64
}

// withDefaults fills the zero fields of l.
func (l Limits) withDefaults() Limits {
	def := func(v *int64, d int64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.Memory, 1<<30)
	def(&l.Files, 1024)
	def(&l.FileSize, 1<<30)
	def(&l.Processes, 256)
	return l
}

// spec is what a worker is told: on its command line, what every worker
// of a pool shares (the directories it may write, whether it runs in
// namespaces of its own, its limits); then, in the assignment frame, the
// one tool it serves and its capabilities.
type spec struct {
	toolID     string
	caps       tool.Capability
	workDir    string
	tempDir    string
	namespaces bool
	limits     Limits
	vcs        []string // version-control directories below the workspace's top (findNested)
	vcsPartial bool     // some stay writable: the search stopped short, or found a .git link
	hide       []string // directories covered by an empty file system (Config.Hide)
	protect    []string // files of the workspace kept read-only (Config.Protect)
}

func (s spec) args() []string {
	args := []string{
		"-workdir", s.workDir, "-tempdir", s.tempDir,
		"-namespaces=" + strconv.FormatBool(s.namespaces),
		"-memory", strconv.FormatInt(s.limits.Memory, 10),
		"-files", strconv.FormatInt(s.limits.Files, 10),
		"-filesize", strconv.FormatInt(s.limits.FileSize, 10),
		"-processes", strconv.FormatInt(s.limits.Processes, 10),
	}
	for _, d := range s.vcs {
		args = append(args, "-vcs", d)
	}
	if s.vcsPartial {
		args = append(args, "-vcs-partial")
	}
	for _, d := range s.hide {
		args = append(args, "-hide", d)
	}
	for _, f := range s.protect {
		args = append(args, "-protect", f)
	}
	return args
}

func parseSpec(args []string) (spec, error) {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var s spec
	fs.StringVar(&s.workDir, "workdir", "", "workspace")
	fs.StringVar(&s.tempDir, "tempdir", "", "temporary directory")
	fs.BoolVar(&s.namespaces, "namespaces", false, "in namespaces of its own")
	fs.Int64Var(&s.limits.Memory, "memory", 0, "RLIMIT_DATA")
	fs.Int64Var(&s.limits.Files, "files", 0, "RLIMIT_NOFILE")
	fs.Int64Var(&s.limits.FileSize, "filesize", 0, "RLIMIT_FSIZE")
	fs.Int64Var(&s.limits.Processes, "processes", 0, "RLIMIT_NPROC")
	fs.BoolVar(&s.vcsPartial, "vcs-partial", false, "the search for version-control directories stopped short")
	fs.Func("vcs", "a version-control directory below the workspace's top", func(d string) error {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("directory %q is not absolute", d)
		}
		s.vcs = append(s.vcs, d)
		return nil
	})
	fs.Func("hide", "a directory no tool sees", func(d string) error {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("directory %q is not absolute", d)
		}
		s.hide = append(s.hide, d)
		return nil
	})
	fs.Func("protect", "a file of the workspace kept read-only", func(f string) error {
		if !filepath.IsAbs(f) {
			return fmt.Errorf("file %q is not absolute", f)
		}
		s.protect = append(s.protect, f)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return spec{}, fmt.Errorf("worker arguments: %w", err)
	}
	if fs.NArg() > 0 {
		return spec{}, fmt.Errorf("worker arguments: unexpected %q", fs.Args())
	}
	for _, d := range []*string{&s.workDir, &s.tempDir} {
		if *d == "" || !filepath.IsAbs(*d) {
			return spec{}, fmt.Errorf("worker arguments: directory %q is not absolute", *d)
		}
	}
	return s, nil
}

// Enforcement says which restrictions a worker has in force.
type Enforcement struct {
	// OS is runtime.GOOS.
	OS string `json:"os"`
	// Caps are the capabilities the worker's restrictions allow.
	Caps string `json:"caps"`
	// LandlockABI is the Landlock ABI version in force, 0 for none.
	LandlockABI int `json:"landlock_abi"`
	// Seccomp is true when the system call filter is installed: no
	// process creation without tool.Exec, no sockets without
	// tool.Network, no metadata changes without tool.WriteFiles, and no
	// namespace, mount, ptrace or io_uring calls for any tool.
	Seccomp bool `json:"seccomp"`
	// NoNewPrivs is true when the worker cannot gain privileges by
	// executing set-user-ID programs.
	NoNewPrivs bool `json:"no_new_privs"`
	// Namespaces is true when the worker runs in user, PID, mount and
	// IPC namespaces of its own: nothing it starts outlives it, and the
	// workspace's version-control directories are read-only.
	Namespaces bool `json:"namespaces"`
	// Missing lists the restrictions the capabilities call for that are
	// not enforced, in words; empty when all are.
	Missing []string `json:"missing,omitempty"`
}

// Enforced reports whether every restriction the capabilities call for
// is in force.
func (e Enforcement) Enforced() bool { return len(e.Missing) == 0 }

// String summarises e for logs and `agent tools -v`.
func (e Enforcement) String() string {
	if e.Enforced() {
		how := fmt.Sprintf("Landlock ABI %d", e.LandlockABI)
		if e.Seccomp {
			how += ", seccomp"
		}
		if e.Namespaces {
			how += ", namespaces"
		}
		return fmt.Sprintf("enforced (%s, %s)", e.OS, how)
	}
	return fmt.Sprintf("not enforced on %s/Landlock ABI %d: %s", e.OS, e.LandlockABI, strings.Join(e.Missing, "; "))
}

// mountGaps returns what a tool with caps misses where no mount namespace
// (namespaces false) keeps the files of Config.Protect read-only and
// covers the directories of Config.Hide and the other workers' temp
// directories.
func mountGaps(caps tool.Capability, namespaces bool, protect, hide []string) []string {
	if namespaces {
		return nil
	}
	var m []string
	if len(protect) > 0 && caps&tool.WriteFiles != 0 {
		m = append(m, "the agent's config in the workspace can be changed ("+strings.Join(protect, ", ")+"): no mount namespace keeps it read-only; keep the config outside the workspace")
	}
	if caps&tool.ReadFiles != 0 {
		m = append(m, otherTempDirsGap+": no mount namespace covers them")
	}
	if len(hide) > 0 && caps&tool.ReadFiles != 0 {
		m = append(m, "the agent's own state can be read ("+strings.Join(hide, ", ")+"): no mount namespace covers it")
	}
	return m
}

// otherTempDirsGap names what a tool that reads files reaches where a
// worker cannot cover the other workers' temp directories.
const otherTempDirsGap = "the other workers' temp directories can be read, with what their tools wrote there"

// placeGaps returns what a tool with caps misses for where the agent
// runs: a workspace workDir that holds the home directory (homeInWork),
// or config files of Config.Protect that no mount keeps read-only
// (unprotected, see protectedFiles).
func placeGaps(caps tool.Capability, workDir, home string, homeInWork bool, unprotected []string) []string {
	if caps&tool.WriteFiles == 0 {
		return nil
	}
	var m []string
	if homeInWork {
		m = append(m, fmt.Sprintf("the workspace %s holds the home directory %s: a tool that writes files can change what runs at the next login or the agent's next start (~/.bashrc, ~/.config); give the agent a project's directory as its workspace (-workdir)", workDir, home))
	}
	if len(unprotected) > 0 {
		m = append(m, fmt.Sprintf("the agent's config in the workspace can be changed (%s): a tool that writes files can replace a symbolic link on its path, or make it where it is missing; keep the config outside the workspace", strings.Join(unprotected, ", ")))
	}
	return m
}

// missing lists what is not enforced for caps on a kernel with Landlock
// ABI abi, with or without the system call filter and namespaces of
// the worker's own.
func missing(caps tool.Capability, abi int, seccompOn, namespaces, root bool) []string {
	var m []string
	if runtime.GOOS != "linux" {
		return []string{"no kernel restrictions on " + runtime.GOOS + ": process isolation only"}
	}
	if abi < 1 {
		m = append(m, "no Landlock: file reads, writes and program execution are not restricted")
	}
	if abi >= 1 && abi < 3 {
		m = append(m, "truncate(2) is not restricted (needs Landlock ABI 3)")
	}
	if !seccompOn {
		if caps&tool.Exec == 0 {
			m = append(m, "process creation and memfd execution are not denied (no seccomp)")
		}
		if caps&tool.WriteFiles == 0 {
			m = append(m, "chmod, chown and mknod are not denied (no seccomp)")
		}
	}
	if caps&tool.Network == 0 && !seccompOn {
		if abi < 4 {
			m = append(m, "TCP connect and bind are not restricted (needs Landlock ABI 4)")
		}
		if abi < 10 {
			m = append(m, "UDP, raw and unix sockets are not restricted (no seccomp socket filter)")
		} else {
			m = append(m, "raw and other non-TCP/UDP sockets are not restricted (no seccomp socket filter)")
		}
	}
	if abi < 6 {
		if namespaces {
			// Signals reach no process outside the PID namespace.
			m = append(m, "abstract unix sockets reaching other processes are not scoped (needs Landlock ABI 6)")
		} else {
			m = append(m, "signals and abstract unix sockets reaching other processes are not scoped (needs Landlock ABI 6)")
		}
	}
	if caps&tool.Exec != 0 {
		switch {
		case !namespaces:
			m = append(m, "the processes a tool starts are not bounded (without a user namespace, RLIMIT_NPROC would count every process of the user)")
		case root:
			m = append(m, "the processes a tool starts are not bounded (the kernel exempts root from RLIMIT_NPROC: run the agent as another user)")
		}
	}
	if !namespaces {
		if caps&tool.Exec == 0 {
			// Its threads: with exec, its processes are named above.
			m = append(m, "the threads a tool starts are not bounded (without a user namespace, RLIMIT_NPROC would count every process of the user, and root is exempt from it): a tool may take every process id of the machine")
		}
		if caps&tool.Exec != 0 {
			m = append(m, "programs a tool starts can outlive the call (no PID namespace: workers run without namespaces here, and the log says why)")
			m = append(m, "System V shared memory, semaphores and message queues of the user's other programs can be read and changed (no IPC namespace: workers run without namespaces here, and the log says why)")
		}
		if caps&tool.WriteFiles != 0 {
			m = append(m, "the workspace's .git, .hg and .svn are writable (no mount namespace: workers run without namespaces here, and the log says why)")
		}
		if caps&tool.ReadFiles != 0 {
			// Without read_files the filter refuses inotify and fanotify
			// instances.
			m = append(m, "the tool may take every inotify instance and watch and fanotify group and mark of the user, which the kernel counts machine-wide (no user namespace: workers run without namespaces here, and the log says why)")
		}
	}
	return m
}
