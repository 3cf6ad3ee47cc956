package tool

import "strings"

// Capability is a set of sensitive things a tool can do to the machine it
// runs on. toolgen finds, at generate time, which capabilities each tool's
// Execute reaches (through the code of the tool package), and warns about
// any that its Definition does not declare:
//
//	Capabilities: tool.Network | tool.Env,
type Capability uint

// The capabilities. Exec and WriteFiles change things: the agent asks
// before running a tool that has them.
const (
	// Exec runs other programs: os/exec, os.StartProcess, syscall.Exec.
	Exec Capability = 1 << iota
	// Network opens network connections: packages net, net/http and the
	// like.
	Network
	// WriteFiles creates, changes or removes files and directories.
	WriteFiles
	// ReadFiles reads files, directories or file system metadata.
	ReadFiles
	// Env reads or changes environment variables.
	Env
	// Unsafe escapes the type system: unsafe, reflect, cgo, plugin,
	// raw system calls.
	Unsafe
)

var capabilityNames = [...]string{"exec", "network", "write_files", "read_files", "env", "unsafe"}

// Changes reports whether c includes a capability that changes things on
// the machine (Exec or WriteFiles).
func (c Capability) Changes() bool { return c&(Exec|WriteFiles) != 0 }

// String lists the capabilities in c by name, separated by commas, or
// "none".
func (c Capability) String() string {
	var names []string
	for i, n := range capabilityNames {
		if c&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// ParseCapabilities reads a comma-separated list of capability names, as
// String writes them.
func ParseCapabilities(s string) (Capability, bool) {
	var c Capability
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" || f == "none" {
			continue
		}
		found := false
		for i, n := range capabilityNames {
			if f == n {
				c |= 1 << i
				found = true
			}
		}
		if !found {
			return 0, false
		}
	}
	return c, true
}
