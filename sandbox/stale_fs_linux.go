package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// localLocks reports whether dir is on a file system whose flock on a
// directory every process that can reach it sees: a local one. A network
// file system's directory locks on the client alone (NFS's directories
// have no flock of their own), so a live pool on another machine would
// look stale; one that cannot be told is not trusted.
func localLocks(dir string) bool {
	var s unix.Statfs_t
	if unix.Statfs(dir, &s) != nil {
		return false
	}
	switch uint32(s.Type) {
	case unix.TMPFS_MAGIC, unix.RAMFS_MAGIC, unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC,
		unix.BTRFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, zfsSuperMagic:
		return true
	}
	return false
}

// zfsSuperMagic is ZFS's f_type, which golang.org/x/sys/unix does not
// name.
const zfsSuperMagic = 0x2fc12fc1

// renameNoReplace renames from to to, failing with fs.ErrExist where to
// exists (renameat2 with RENAME_NOREPLACE).
func renameNoReplace(from, to string) error {
	if err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}
