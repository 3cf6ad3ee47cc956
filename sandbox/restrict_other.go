//go:build !linux

package sandbox

import (
	"runtime"

	"github.com/toolreg/toolreg/tool"
)

// Check reports what a worker for caps would enforce on this machine:
// elsewhere than Linux, nothing beyond process isolation.
func Check(caps tool.Capability) Enforcement {
	return Enforcement{OS: runtime.GOOS, Caps: caps.String(), Missing: missing(caps, 0, false, false)}
}

// restrict applies no kernel restrictions elsewhere than Linux.
func restrict(s spec) (Enforcement, error) {
	return Check(s.caps), nil
}

// closeInherited leaves descriptors alone elsewhere than Linux.
func closeInherited() error { return nil }

// userNamespaces reports that workers get no namespaces elsewhere than
// Linux.
func userNamespaces() bool { return false }
