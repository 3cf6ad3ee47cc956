// Package instrumented is a probe of the go command's instrumentation: it
// runs a program only when built with -race, whose build tag chooses
// run_race.go.
package instrumented

import "context"

// Tool is the probe.
type Tool struct{}

// Args are empty.
type Args struct{}

// Execute runs what the build compiles.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return run(ctx), nil
}
