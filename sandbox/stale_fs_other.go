//go:build unix && !aix && !linux

package sandbox

import (
	"io/fs"
	"os"
)

// localLocks reports false: no file system here is known to hold the
// locks of every process that can reach it, so nothing is swept (see
// sweepStale).
func localLocks(dir string) bool { return false }

// renameNoReplace renames from to to, failing with fs.ErrExist where to
// exists: looked for first, which leaves a moment in which another
// process may make it (no sweep runs here to be misled by that).
func renameNoReplace(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
	}
	return os.Rename(from, to)
}
