//go:build darwin

package toolbox

import "syscall"

// diskStatfs reports the filesystem that holds path.
func diskStatfs(path string) (diskStats, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return diskStats{}, err
	}
	size := uint64(st.Bsize)
	return diskStats{
		Total: st.Blocks * size,
		Free:  st.Bfree * size,
		Avail: st.Bavail * size,
	}, nil
}
