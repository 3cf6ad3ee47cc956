//go:build linux && !amd64 && !arm64

package sandbox

import (
	"errors"
	"runtime"

	"github.com/toolreg/toolreg/tool"
)

// There is no seccomp filter for this architecture (see seccomp_linux.go):
// a worker's Enforcement says seccomp is missing, and what it would have
// refused is among the worker's gaps.

// seccompSupported reports false: there is no filter here.
func seccompSupported() bool { return false }

// loadFilter fails: there is no filter here.
func loadFilter(tool.Capability) error {
	return errors.New("no seccomp filter for " + runtime.GOARCH)
}
