// Package dotless is a helper in a module whose path has no dot in its
// first element (required and replaced by a directory, as go.mod allows).
// The audit once took such a path for the standard library's: the package
// was not loaded from source, the standard-library summary had no line for
// its functions, and they and its start-up code reached nothing. The go
// command says which packages are the standard library's; this one is not.
package dotless

import (
	"os"
	"os/exec"
)

// Home is read at start.
var Home = os.Getenv("HOME")

// Run runs name.
func Run(name string) error { return exec.Command(name).Run() }
