// Package cgohelper needs cgo: it has no file for builds without it.
package cgohelper

// #include <unistd.h>
import "C"

// PID asks C for the process id.
func PID() int { return int(C.getpid()) }
