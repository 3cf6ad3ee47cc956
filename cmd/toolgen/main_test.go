package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/toolreg/toolreg/internal/audit"
	"github.com/toolreg/toolreg/internal/raceexit"
)

// TestMain shortens the race detector's wait at exit for the programs the
// tests build with go test's own -race and run. Under the race detector
// the audit reads the standard library's types from the go command's
// export data only (audit.StdTypesVar), as the audit's own race tests do:
// go/types makes them from source ten times slower there.
func TestMain(m *testing.M) {
	if raceEnabled {
		os.Setenv(audit.StdTypesVar, "cached")
	}
	if err := raceexit.Shorten(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
