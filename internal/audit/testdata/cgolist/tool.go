// Package cgolist has a file cgo compiles: the audit loads the Go files
// cgo writes for it, which only a listing with -compiled names.
package cgolist

/*
static int seven(void) { return 7; }
*/
import "C"

import "context"

// Tool calls C.
type Tool struct{}

// Execute returns seven.
func (Tool) Execute(ctx context.Context) (int, error) { return int(C.seven()), nil }
