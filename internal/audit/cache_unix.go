//go:build unix

package audit

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// trusted checks that a cached file is a regular file of the user's that
// no one else can write.
func trusted(info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if info.Mode().Perm()&0o022 != 0 {
		return errors.New("writable by others than its owner")
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return errors.New("owned by another user")
	}
	return nil
}

// openRead opens file for reading without waiting: a fifo where a
// regular file was expected opens at once, and the check of the file
// opened refuses it, where an open that waits for a writer would hang.
// A regular file reads as it always does.
func openRead(file string) (*os.File, error) {
	return os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
