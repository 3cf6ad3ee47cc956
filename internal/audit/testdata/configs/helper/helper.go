// Package helper differs by build configuration.
package helper

import "context"

// Do calls what the configuration compiles.
func Do(ctx context.Context) string { return env() + run(ctx) }
