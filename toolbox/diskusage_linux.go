//go:build linux

package toolbox

import "syscall"

// diskStatfs reports the filesystem that holds path.
func diskStatfs(path string) (diskStats, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return diskStats{}, err
	}
	return diskStatsOf(&st), nil
}

// diskStatsOf converts what statfs reports into bytes.
func diskStatsOf(st *syscall.Statfs_t) diskStats {
	// Block counts are in units of the fragment size where there is one.
	size := uint64(st.Frsize)
	if size == 0 {
		size = uint64(st.Bsize)
	}
	return diskStats{
		Total: st.Blocks * size,
		Free:  st.Bfree * size,
		Avail: st.Bavail * size,
	}
}
