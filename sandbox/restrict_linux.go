//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

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

// Check reports what a worker for caps would enforce on this machine,
// without starting one.
func Check(caps tool.Capability) Enforcement {
	abi := landlockABI()
	sc := caps&tool.Network == 0 && seccomp.Supported()
	return Enforcement{OS: runtime.GOOS, Caps: caps.String(), LandlockABI: abi, Seccomp: sc, NoNewPrivs: true, Missing: missing(caps, abi, sc)}
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

// restrict confines the calling process, for good, to what s.caps
// allow: no_new_privs, Landlock for files, TCP and IPC scopes, and
// without tool.Network a seccomp filter that denies creating sockets.
// It fails when a restriction that the kernel offers cannot be applied;
// what the kernel does not offer is listed in the result's Missing.
func restrict(s spec) (Enforcement, error) {
	e := Enforcement{OS: runtime.GOOS, Caps: s.caps.String()}
	if err := ll.AllThreadsPrctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return e, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	e.NoNewPrivs = true

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

	if s.caps&tool.Network == 0 && seccomp.Supported() {
		if err := denySockets(); err != nil {
			return e, fmt.Errorf("seccomp socket filter: %w", err)
		}
		e.Seccomp = true
	}
	e.Missing = missing(s.caps, e.LandlockABI, e.Seccomp)
	return e, nil
}

// landlockRules builds the ruleset for s on a kernel with Landlock ABI
// abi: every right the ABI knows is handled, and granted only where s
// needs it.
func landlockRules(s spec, abi int) (landlock.Config, []landlock.Rule, error) {
	cfg := landlockConfigs[abi]
	handled := cfg.HandledAccessFS
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
		if err := add(rightsRead, "/"); err != nil {
			return cfg, nil, err
		}
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
		if err := add(rightsWrite, s.workDir, s.tempDir); err != nil {
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

// denySockets installs a seccomp filter on every thread that makes
// socket(2) (and io_uring, which can open sockets on its own) fail with
// EPERM. socketpair(2) stays: it reaches nothing outside the process.
func denySockets() error {
	names := []string{"socket", "io_uring_setup"}
	if runtime.GOARCH == "386" {
		names = append(names, "socketcall")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls:      []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: names}},
		},
	})
}
