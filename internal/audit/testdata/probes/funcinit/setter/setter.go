// Package setter sets, in its init, a function variable that another
// package calls.
package setter

import "os"

// Start starts a process.
var Start func(name string, argv []string, attr *os.ProcAttr) (*os.Process, error)

func init() { Start = os.StartProcess }
