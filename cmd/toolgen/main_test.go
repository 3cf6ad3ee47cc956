package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/toolreg/toolreg/internal/raceexit"
)

// TestMain shortens the race detector's wait at exit for the programs the
// tests build with go test's own -race and run. Under the race detector,
// too, the audit makes the standard library's types from source, or
// reads them from the types cache: go/types runs ten times slower there,
// about eight seconds a platform, but the go command's export data, where
// the build cache is empty, costs a compile of each platform's standard
// library without -race, about a minute of processor time each.
func TestMain(m *testing.M) {
	if err := raceexit.Shorten(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
