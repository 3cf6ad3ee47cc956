package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/toolreg/toolreg/internal/raceexit"
)

// TestMain shortens the race detector's wait at exit for the programs the
// tests build with go test's own -race and run.
func TestMain(m *testing.M) {
	if err := raceexit.Shorten(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
