// Package helper runs programs for the probe tools, out of their package.
package helper

import (
	"context"
	"os/exec"
)

// Run runs name.
func Run(ctx context.Context, name string) error {
	return exec.CommandContext(ctx, name).Run()
}

// Do calls f; generic, so the call is through an instance.
func Do[T any](f func() T) T { return f() }
