// Package tool is a stand-in for github.com/toolreg/toolreg/tool: the
// names the checks look at.
package tool

import "time"

// Definition describes a tool.
type Definition struct {
	ID, Name, Description string
	Timeout               time.Duration
	Capabilities          Capability
}

// Capability is a set of capabilities.
type Capability uint

// The capabilities.
const (
	Exec Capability = 1 << iota
	Network
	WriteFiles
	ReadFiles
	Env
	Unsafe
)
