package main

import (
	"fmt"
	"os"
	"os/exec"

	"golang.org/x/sys/unix"
)

// dropCache evicts the executable named by argv0 from the page cache
// (posix_fadvise DONTNEED on its clean pages), so that its next start
// reads it from the disk and the kernel chooses its folios afresh. It
// touches that file's cache only.
func dropCache(argv0 string) error {
	path, err := exec.LookPath(argv0)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// Dirty pages are not dropped: write them first.
	if err := f.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", path, err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("fadvise %s: %w", path, err)
	}
	return nil
}
