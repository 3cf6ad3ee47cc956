// Package raceexit shortens, for the processes a test binary starts, the
// race detector's wait at exit. It is for tests that start many
// processes of an instrumented binary (the agent, its workers, servers).
package raceexit

import (
	"fmt"
	"os"
	"strings"
)

// Shorten sets GORACE's atexit_sleep_ms to 10 in this process's
// environment, which the processes it starts inherit: the race detector
// waits a second at exit by default, which a -race run paid again on each
// of them. Races are reported as before; only one in a goroutine still
// running 10 ms after its process's main returned can go unseen. A GORACE
// that sets atexit_sleep_ms itself is kept.
func Shorten() error {
	v := os.Getenv("GORACE")
	if strings.Contains(v, "atexit_sleep_ms") {
		return nil
	}
	if err := os.Setenv("GORACE", strings.TrimSpace(v+" atexit_sleep_ms=10")); err != nil {
		return fmt.Errorf("set GORACE: %w", err)
	}
	return nil
}
