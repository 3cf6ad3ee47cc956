// Package traps is a registry whose tool package holds the silent traps
// of issue 31: each tool file is one way a tool could be registered and
// behave unlike what its author wrote, and each must be warned about at
// its position; fine is generated all the same.
package traps
