// Package stdname is a module whose path, crypto/stdname, begins as the
// standard library's crypto packages do (required and replaced by a
// directory, as go.mod allows). The audit's rules for functions without a
// Go body name packages of the standard library ("crypto/" is assembly
// kernels); they must not apply to this package, which the go command
// does not list as the standard library's.
package stdname

import _ "unsafe"

// Remove has no Go body: it is os.Remove.
//
//go:linkname Remove os.Remove
func Remove(name string) error
