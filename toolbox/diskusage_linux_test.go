//go:build linux

package toolbox

import (
	"context"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiskStatsOf converts statfs answers with and without a fragment
// size, and with a fragment size smaller than the block size.
func TestDiskStatsOf(t *testing.T) {
	for _, tc := range []struct {
		st   syscall.Statfs_t
		want diskStats
	}{
		{syscall.Statfs_t{Bsize: 4096, Frsize: 4096, Blocks: 100, Bfree: 40, Bavail: 30}, diskStats{Total: 409600, Free: 163840, Avail: 122880}},
		{syscall.Statfs_t{Bsize: 4096, Frsize: 0, Blocks: 100, Bfree: 40, Bavail: 30}, diskStats{Total: 409600, Free: 163840, Avail: 122880}},
		{syscall.Statfs_t{Bsize: 65536, Frsize: 1024, Blocks: 100, Bfree: 40, Bavail: 30}, diskStats{Total: 102400, Free: 40960, Avail: 30720}},
		{syscall.Statfs_t{Bsize: 1, Frsize: 1, Blocks: 1, Bfree: 1, Bavail: 0}, diskStats{Total: 1, Free: 1}},
		{syscall.Statfs_t{}, diskStats{}},
	} {
		if diff := cmp.Diff(tc.want, diskStatsOf(&tc.st)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.st, diff)
		}
	}
}

// TestDiskUsageRootTotal checks the real root filesystem's total against
// statfs itself: the size of a filesystem does not change between two
// calls, unlike its free space.
func TestDiskUsageRootTotal(t *testing.T) {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/", &st); err != nil {
		t.Skipf("statfs is not available here: %v", err)
	}
	size := st.Frsize
	if size == 0 {
		size = st.Bsize
	}
	want := diskRound1(float64(st.Blocks*uint64(size)) / 1e9)
	got, err := DiskUsage{}.Execute(context.Background(), DiskUsageArgs{})
	if err != nil {
		t.Fatal(err)
	}
	if got.TotalGB != want {
		t.Errorf("TotalGB of / = %v, want %v (statfs: %d blocks of %d bytes)", got.TotalGB, want, st.Blocks, size)
	}
}
