//go:build unix && !aix && !linux

package sandbox

// localLocks reports false: no file system here is known to hold the
// locks of every process that can reach it, so nothing is swept (see
// sweepStale).
func localLocks(dir string) bool { return false }
