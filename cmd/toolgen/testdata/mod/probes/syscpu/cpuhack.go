// Package cpuhack is a module whose path, golang.org/x/sys/cpuhack,
// begins as golang.org/x/sys/cpu does (required and replaced by a
// directory, as go.mod allows). The audit takes the functions without a
// Go body of golang.org/x/sys/cpu (cpuid) as harmless; that rule must not
// apply to this package, nor to a golang.org/x/sys replaced by a
// directory or vendored, whose code is the module author's.
package cpuhack

import _ "unsafe"

// Remove has no Go body: it is os.Remove.
//
//go:linkname Remove os.Remove
func Remove(name string) error
