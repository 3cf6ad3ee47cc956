//go:build unix

package mcpauth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkPerms says whether file modes tell who may read a file.
const checkPerms = true

// openNoFollow opens path for reading, failing when its last element is
// a symbolic link.
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link; refused", path)
	}
	return f, err
}

// ownedByMe reports an error when fi is another user's.
func ownedByMe(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Errorf("owned by user %d, not %d", st.Uid, uid)
	}
	return nil
}
