//go:build !unix || aix

package sandbox

import (
	"context"
	"io"
	"log/slog"
	"os"
)

// Without flock there is no telling a live pool's directory from one a
// pool ended without Close left: none is removed but by its own pool.

const tempPrefix = "toolreg-pool-"

// makeTempParent makes the pool's directory for its workers' temp
// directories in dir; lock does nothing.
func makeTempParent(dir string) (path string, lock io.Closer, err error) {
	d, err := os.MkdirTemp(dir, tempPrefix)
	if err != nil {
		return "", nil, err
	}
	return d, io.NopCloser(nil), nil
}

// sweepStale removes nothing here (see makeTempParent).
func sweepStale(ctx context.Context, dir string, log *slog.Logger, local func(dir string) bool) []string {
	return nil
}

// localLocks reports false (see makeTempParent).
func localLocks(dir string) bool { return false }
