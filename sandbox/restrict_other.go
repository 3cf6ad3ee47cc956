//go:build !linux

package sandbox

import (
	"runtime"

	"github.com/toolreg/toolreg/tool"
)

// Check reports what a worker for caps would enforce on this machine:
// elsewhere than Linux, nothing beyond process isolation.
func Check(caps tool.Capability) Enforcement {
	return Enforcement{OS: runtime.GOOS, Caps: caps.String(), Missing: missing(caps, 0, false, false, false)}
}

// check is Check: workers have no namespaces elsewhere than Linux.
func check(caps tool.Capability, _ bool) Enforcement { return Check(caps) }

// prepared is what prepare did: nothing elsewhere than Linux.
type prepared struct{}

// prepare does nothing elsewhere than Linux.
func prepare(spec) (prepared, error) { return prepared{}, nil }

// confine applies no kernel restrictions elsewhere than Linux.
func (prepared) confine(s spec) (Enforcement, error) {
	e := Check(s.caps)
	e.Missing = append(e.Missing, mountGaps(s.caps, false, s.protect, s.hide)...)
	return e, nil
}

// closeInherited leaves descriptors alone elsewhere than Linux.
func closeInherited() error { return nil }

// userNamespaces reports that workers get no namespaces elsewhere than
// Linux.
func userNamespaces() bool { return false }
